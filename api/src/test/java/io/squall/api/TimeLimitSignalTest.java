package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --signal=B:USR1@120}: a real batch script gets SIGUSR1 120 s before its 5 min time limit
 * (training jobs checkpoint on it before a timeout), once, on the controller's manual clock.
 */
class TimeLimitSignalTest {
  private static final Duration LONG = Duration.ofSeconds(120);

  @TempDir Path dir;

  @Test
  void theBatchShellGetsItsSignalItsSignalTimeBeforeTheTimeLimitOnce() throws Exception {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "local");
    s.put("squall.partitions.gpu.nodes", "cloud-1");
    s.put("squall.partitions.gpu.elastic", true);
    s.put("squall.partitions.gpu.batch-window", "200ms");
    s.put("squall.ticks", "manual");
    s.put("squall.node-timeout", "1h"); // the clock jumps minutes ahead of the agent's heartbeats
    Path got = dir.resolve("got");
    Path trapped = dir.resolve("trapped");
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long id = h.submit("#!/bin/bash\n#SBATCH -N 1 --gres=gpu:8 -t 5 --signal=B:USR1@120 --output=/dev/null\n"
          + "trap 'echo USR1 >> " + got + "' USR1\n"
          + "touch " + trapped + "\n"
          + "while true; do sleep 1 & wait $!; done\n");
      JsonNode running = time.until("the job running", LONG, () -> {
        JsonNode j = h.job(id);
        return j.get("state").asText().equals("RUNNING") ? j : null;
      });
      // RUNNING is when the agent started the shell, not when the shell set its trap: a SIGUSR1
      // before the trap would kill it (bash's default), so the clock moves only once it is set.
      Poll.until("the batch shell to set its trap", LONG, () -> Files.exists(trapped) ? true : null);
      Instant started = Instant.parse(running.get("start_time").asText());
      Duration toWarning = Duration.between(time.clock().instant(), started.plus(Duration.ofMinutes(3)));
      time.tickAfter(toWarning.minusSeconds(2));
      assertThat(h.job(id).get("events").toString()).doesNotContain("--signal");
      time.tickAfter(Duration.ofSeconds(3)); // past the warning, whatever fraction of a second the start had
      assertThat(h.job(id).get("events").toString()).contains("--signal");
      Poll.until("the batch shell to get SIGUSR1", LONG, () -> Files.exists(got) ? true : null);
      // Ticks go on until the limit: the signal is planned again each cycle, sent once.
      time.tickAfter(Duration.ofSeconds(30));
      time.tickAfter(Duration.ofSeconds(30));
      JsonNode j = h.job(id);
      assertThat(j.get("events").findValuesAsText("reason")).filteredOn(r -> r.startsWith("--signal"))
          .containsExactly("--signal: 120 s before its time limit: SIGUSR1 sent to the batch shell");
      assertThat(j.get("state").asText()).isEqualTo("RUNNING");
      assertThat(h.delete("alice-token", "/v1/jobs/" + id).status()).isEqualTo(200);
    }
    assertThat(Files.readAllLines(got)).containsExactly("USR1");
  }
}
