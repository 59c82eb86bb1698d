package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A controller restart loses nothing: on H2 (the embedded default) and on a real PostgreSQL
 * server (.ci/run starts one and sets SQUALL_TEST_PG_URL).
 */
class StateSurvivesRestartTest {
  private static final String SCRIPT = "#!/bin/bash\n#SBATCH --gpus-per-node=1\necho hi\n";

  @TempDir
  Path dir;

  @Test
  void onH2() {
    survivesRestart(null);
  }

  @Test
  void onPostgres() throws SQLException {
    survivesRestart(Controllers.emptyPostgres());
  }

  private void survivesRestart(String jdbcUrl) {
    Map<String, Object> settings = Controllers.settings(dir, jdbcUrl, "none");
    long pending;
    long held;
    long cancelled;
    long array;
    long fromEnvironment;
    long heldTask;
    Instant eligible;
    try (Controllers.Running first = Controllers.start(settings)) {
      Http h = new Http(first.url());
      pending = submit(h, List.of());
      held = submit(h, List.of("--hold"));
      cancelled = submit(h, List.of());
      array = submit(h, List.of("--array=0-3"));
      fromEnvironment = h.submit(Map.of("script", SCRIPT, "environment", Map.of("SBATCH_TIMELIMIT", "45")));
      assertThat(h.delete("alice-token", "/v1/jobs/" + cancelled).status()).isEqualTo(200);
      assertThat(h.delete("alice-token", "/v1/jobs/" + array + "_2").status()).isEqualTo(200);
      // Tasks taken off the array get their own job ids: the first the array's, the next a new one.
      assertThat(h.post("alice-token", "/v1/jobs/" + array + "_3/hold", null).status()).isEqualTo(200);
      heldTask = h.job(array + "_3").get("job_id_raw").asLong();
      assertThat(heldTask).isGreaterThan(array);
      // Its age counts from when a cycle first found it eligible (nodes or not), the held job's from never.
      eligible = Poll.until("job " + pending + " eligible", Duration.ofSeconds(30), () -> eligibleTime(h, pending));
      assertThat(eligibleTime(h, held)).isNull();
    }
    try (Controllers.Running second = Controllers.start(settings)) {
      Http h = new Http(second.url());
      assertThat(h.jobState(pending)).isEqualTo("PENDING");
      assertThat(h.get("alice-token", "/v1/jobs/" + held).json().get("held").asBoolean()).isTrue();
      // The restarted controller's cycles see the job as eligible since then, not since now.
      assertThat(eligibleTime(h, pending)).isEqualTo(eligible);
      assertThat(h.jobState(cancelled)).isEqualTo("CANCELLED");
      // The request is read again with the submitter's SBATCH_* variables, as at submission.
      assertThat(h.job(fromEnvironment).get("time_limit_minutes").asInt()).isEqualTo(45);
      assertThat(h.get("alice-token", "/v1/jobs/" + array).json().get("array_pending").asText()).isEqualTo("[0-1]");
      assertThat(h.jobState(array + "_2")).isEqualTo("CANCELLED");
      assertThat(h.get("alice-token", "/v1/jobs/" + cancelled).json().get("events").findValuesAsText("state"))
          .containsExactly("PENDING", "CANCELLED");
      assertThat(h.job(array + "_2").get("job_id_raw").asLong()).isEqualTo(array);
      assertThat(h.job(heldTask).get("job_id").asText()).isEqualTo(array + "_3");
      // Ids go on from where they were: no id is ever given twice, an array task's own included.
      assertThat(submit(h, List.of())).isGreaterThan(heldTask);
    }
  }

  /** The job's eligible time as the API shows it (Slurm's EligibleTime), to the millisecond; or null. */
  private static Instant eligibleTime(Http h, long id) {
    var t = h.get("alice-token", "/v1/jobs/" + id).json().get("eligible_time");
    return t == null || t.isNull() ? null : Instant.parse(t.asText()).truncatedTo(ChronoUnit.MILLIS);
  }

  private static long submit(Http h, List<String> argv) {
    return h.submit(Map.of("script", SCRIPT, "argv", argv));
  }

}
