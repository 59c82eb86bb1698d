package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.bench.ScaleBench;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scale bench at CI size, its agents heartbeating through the submissions: it runs end to end
 * and its figures are sane (not a timing test).
 */
class ScaleBenchTest {
  @Test
  void runsAControllerWithSimulatedAgentsAndReportsItsFigures(@TempDir Path dir) throws Exception {
    ScaleBench.Result r = ScaleBench.run(new ScaleBench.Options(200, 2000, Duration.ofSeconds(6), 4, true, List.of(),
        Duration.ZERO), dir);

    assertThat(r.running()).isEqualTo(200);
    assertThat(r.pending()).isEqualTo(1800);
    assertThat(r.squeueJobs()).isEqualTo(2000);
    assertThat(r.squeue().fullListMs()).isPositive();
    assertThat(r.squeue().cliMs()).isNull(); // not launched by bin/squall
    assertThat(r.rssMb()).isPositive();
    assertThat(r.peakRssMb()).isGreaterThanOrEqualTo(r.rssMb());
    assertThat(r.downAfterSubmit()).isZero();
    assertThat(r.heartbeatErrors()).isZero();
    assertThat(r.reregistrations()).isZero();
    assertThat(r.heartbeatsPerS()).isPositive();
    // Every agent sent again within the node timeout (at this size a run may be too short for two
    // sends between the pause and the end), and its heartbeats' answers were timed.
    assertThat(r.beats().gapSeconds()).isLessThan(30);
    assertThat(r.beats().agentsOverTimeout()).isZero();
    assertThat(r.beats().waitSeconds()).isPositive();
    assertThat(r.coresWithHeartbeats()).isPositive();
    assertThat(r.json()).startsWith("{\"nodes\":200,\"jobs\":2000,")
        .contains("\"nodes_down_after_submit\":0,").contains("\"running\":200,\"pending\":1800,")
        .contains("\"agents_gap_over_timeout\":0,");
  }
}
