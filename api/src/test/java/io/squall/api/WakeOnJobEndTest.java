package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's end wakes the scheduler, as a submission does: the next job starts on the GPUs it freed
 * at once, not at the next {@code scheduler-interval} tick (an hour here, so only a wake can start
 * it within the test). The node's "agent" is a fake that takes every call; the test reports the
 * batch script's exit as the agent would.
 */
class WakeOnJobEndTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final String AGENT_TOKEN = "change-me-agent-token";
  private static final String WHOLE_NODE = "#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 600\n";

  @TempDir
  Path dir;
  private FakeAgent agent;

  @BeforeEach
  void fakeAgent() {
    agent = new FakeAgent();
  }

  @AfterEach
  void stopAgent() {
    agent.close();
  }

  @Test
  void theNextJobStartsWhenTheJobBeforeItEndsNotAtTheNextTick() {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "none");
    s.put("squall.partitions.gpu.nodes", "node-1");
    s.put("squall.scheduler-interval", "1h");
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      assertThat(h.post(AGENT_TOKEN, "/v1/agent/register", Map.of("name", "node-1", "address",
          agent.address(), "gpus", 8, "cpus", 32, "memory_mb", 262144)).status()).isEqualTo(200);
      String first = Long.toString(h.submit(WHOLE_NODE));
      Poll.until("the first job running (its submission woke the scheduler)", LONG,
          () -> h.job(first).get("state").asText().equals("RUNNING"));
      String second = Long.toString(h.submit(WHOLE_NODE));
      Poll.until("the second job waiting for the node", LONG,
          () -> h.job(second).get("reason").asText().equals("Resources"));

      Http.Answer exit = h.post(AGENT_TOKEN, "/v1/agent/events", Map.of("name", "node-1",
          "events", List.of(Map.of("job", first, "type", "exit", "exit_code", 0))));
      assertThat(exit.status()).as(exit.body()).isEqualTo(200);

      Poll.until("the second job running on the GPUs the first freed", LONG,
          () -> h.job(second).get("state").asText().equals("RUNNING"));
      assertThat(h.job(first).get("state").asText()).isEqualTo("COMPLETED");
    }
  }
}
