package io.squall.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.api.simulate.ServiceConfig;
import io.squall.core.schedule.Backfill;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code squall.backfill.*}: Slurm's bf_window, bf_max_job_test, bf_resolution and bf_continue,
 * with Slurm's defaults; a value out of Slurm's range stops start-up, naming its key.
 */
class BackfillConfigTest {
  @TempDir
  Path dir;

  private Path file(String backfill) throws Exception {
    Path f = dir.resolve("squall.yml");
    Files.writeString(f, """
        squall:
          partitions:
            gpu:
              nodes: n-[1-2]
          backfill:
        """ + backfill);
    return f;
  }

  @Test
  void slurmsDefaultsWhenUnset() {
    assertThat(new BackfillConfig().settings())
        .isEqualTo(new Backfill(Duration.ofMinutes(1440), 500, Duration.ofSeconds(60)));
  }

  @Test
  void theKeysBindAsTheControllerReadsThemAndTheSchedulerUsesThem() throws Exception {
    ServiceConfig.Cluster c = ServiceConfig.read(file("""
            window: 2d
            max-job-test: 50
            resolution: 5m
            continue: true
        """));
    assertThat(c.scheduler().backfill()).isEqualTo(new Backfill(Duration.ofDays(2), 50, Duration.ofMinutes(5)));
  }

  @Test
  void outOfRangeIsRefusedNamingTheKey() throws Exception {
    BackfillConfig c = new BackfillConfig();
    c.setWindow(Duration.ofSeconds(30));
    assertThatThrownBy(c::settings).hasMessage(
        "squall.backfill.window: must be from 1m to 30d (Slurm's bf_window, 1 to 43200 minutes), not PT30S");
    c.setWindow(Duration.ofDays(31));
    assertThatThrownBy(c::settings).hasMessageStartingWith("squall.backfill.window: ");
    c.setWindow(Duration.ofDays(30));
    c.setMaxJobTest(0);
    assertThatThrownBy(c::settings).hasMessage(
        "squall.backfill.max-job-test: must be from 1 to 1000000 (Slurm's bf_max_job_test), not 0");
    c.setMaxJobTest(1_000_000);
    c.setResolution(Duration.ofMillis(1500));
    assertThatThrownBy(c::settings).hasMessage(
        "squall.backfill.resolution: must be whole seconds from 1s to 1h (Slurm's bf_resolution), not PT1.5S");
    c.setResolution(Duration.ofHours(2));
    assertThatThrownBy(c::settings).hasMessageStartingWith("squall.backfill.resolution: ");
    c.setResolution(Duration.ofHours(1));
    c.setContinue("yes please");
    assertThatThrownBy(c::settings).hasMessage("squall.backfill.continue: true or false, not 'yes please'");
    c.setContinue("false");
    assertThat(c.settings()).isEqualTo(new Backfill(Duration.ofDays(30), 1_000_000, Duration.ofHours(1)));

    assertThatThrownBy(() -> ServiceConfig.read(file("    max-job-test: 0\n")))
        .hasMessageContaining("squall.backfill.max-job-test: must be from 1 to 1000000");
    assertThatThrownBy(() -> ServiceConfig.read(file("    continue: maybe\n")))
        .hasMessageContaining("squall.backfill.continue: true or false, not 'maybe'");
  }
}
