package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job does not start again while its last run may still go on: Slurm's COMPLETING. Its node's
 * agent answered the clean-up with processes not yet gone, and lists the job in its heartbeats
 * until they are; only a heartbeat without it lets the job, requeued meanwhile, start again. The
 * node's "agent" is a fake; the test sends its heartbeats, saying what it holds.
 */
class CompletingRunsTest {
  private static final Duration LONG = Duration.ofSeconds(60);

  @TempDir
  Path dir;
  @AutoClose
  private final FakeAgent agent = new FakeAgent();

  @Test
  void aRequeuedJobWaitsUntilItsNodeNoLongerHoldsItsLastRun() {
    try (Controllers.Running c = Controllers.start(Controllers.manualSettings(dir.resolve("data"), null, "node-1",
        "60s"))) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      agent.register(h, "node-1");
      long id = h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 600\n");
      String job = Long.toString(id);
      time.tick(); // the cycle starts the job
      time.awaitLaunchBack(job);
      agent.deletedRunsLinger();
      agent.exit(h, "node-1", job, 0);
      Poll.until("the node told to drop what is left of it", LONG, () -> agent.called("DELETE /jobs/" + job));

      assertThat(h.post("alice-token", "/v1/jobs/" + id + "/requeue", Map.of()).status()).isEqualTo(200);
      for (int i = 0; i < 3; i++) {
        // Still dying there: the controller no longer runs it on the node (a stray), and holds it back.
        assertThat(agent.heartbeat(h, "node-1", List.of(job)).body()).contains(job);
        time.tick();
        assertThat(h.jobState(id)).isEqualTo("PENDING");
      }

      // Gone: the next cycle after a heartbeat without it starts the job again.
      Poll.until("the job running again", LONG, () -> {
        agent.heartbeat(h, "node-1", List.of());
        time.tick();
        return h.jobState(id).equals("RUNNING");
      });
      assertThat(h.job(job).get("restart_count").asInt()).isEqualTo(1);
    }
  }
}
