package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An interactive allocation reaches its time limit, on the controller's manual clock: it ends
 * TIMEOUT at once (no batch script is there to report an exit) and the step running in it is
 * killed, so the srun that started it ends too; the node is free for the next job.
 */
class InteractiveTimeLimitTest {
  private static final Duration LONG = Duration.ofSeconds(120);

  @TempDir Path dir;

  @Test
  void anAllocationPastItsTimeLimitEndsTimeoutWithItsStep() throws Exception {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "local");
    s.put("squall.partitions.gpu.nodes", "cloud-1");
    s.put("squall.partitions.gpu.elastic", true);
    s.put("squall.partitions.gpu.batch-window", "200ms");
    s.put("squall.ticks", "manual");
    s.put("squall.node-timeout", "1h"); // the clock jumps minutes ahead of the agent's heartbeats
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      LoginNode login = new LoginNode(dir, c.url());
      long id = h.submit(Map.of("interactive", true, "argv", List.of("-N1", "--gres=gpu:8", "-t", "2"),
          "script_name", "sh"));
      JsonNode running = time.until("the allocation running", LONG, () -> {
        JsonNode j = h.job(id);
        return j.get("state").asText().equals("RUNNING") ? j : null;
      });
      // srun inside the allocation, as in salloc's shell.
      Process srun = login.start(Map.of("SLURM_JOB_ID", Long.toString(id)), "alice-token", "srun", "bash", "-c",
          "echo job=$SLURM_JOB_ID; sleep 600");
      assertThat(login.printedJob(srun, LONG, Poll::until)).isEqualTo(Long.toString(id));

      Instant started = Instant.parse(running.get("start_time").asText());
      time.tickAfter(Duration.between(time.clock().instant(), started.plus(Duration.ofMinutes(2))).minusSeconds(5));
      assertThat(h.jobState(id)).isEqualTo("RUNNING");
      time.tickAfter(Duration.ofSeconds(6));
      JsonNode ended = h.job(id);
      assertThat(ended.get("state").asText()).isEqualTo("TIMEOUT");
      assertThat(ended.get("events").toString()).contains("time limit reached");
      int status = Poll.until("srun to end with its step", LONG, () -> srun.isAlive() ? null : srun.exitValue());
      assertThat(status).as(login.read(srun, false)).isNotZero();
    }
  }
}
