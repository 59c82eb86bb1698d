package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
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
  private static final String WHOLE_NODE = "#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 600\n";

  @TempDir
  Path dir;
  @AutoClose
  private final FakeAgent agent = new FakeAgent();

  @Test
  void theNextJobStartsWhenTheJobBeforeItEndsNotAtTheNextTick() {
    Map<String, Object> s = Controllers.staticSettings(dir.resolve("data"), null, "node-1");
    s.put("squall.scheduler-interval", "1h");
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      agent.register(h, "node-1");
      String first = Long.toString(h.submit(WHOLE_NODE));
      Poll.until("the first job running (its submission woke the scheduler)", LONG,
          () -> h.job(first).get("state").asText().equals("RUNNING"));
      String second = Long.toString(h.submit(WHOLE_NODE));
      Poll.until("the second job waiting for the node", LONG,
          () -> h.job(second).get("reason").asText().equals("Resources"));

      agent.exit(h, "node-1", first, 0);

      Poll.until("the second job running on the GPUs the first freed", LONG,
          () -> h.job(second).get("state").asText().equals("RUNNING"));
      assertThat(h.job(first).get("state").asText()).isEqualTo("COMPLETED");
    }
  }
}
