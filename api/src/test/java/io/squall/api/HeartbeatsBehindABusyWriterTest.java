package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.api.agents.AgentReports;
import io.squall.api.state.StateWriter;
import io.squall.core.model.NodeState;
import io.squall.core.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node whose agent keeps reporting stays UP while the single writer is busy for longer than the
 * node timeout (issue 18: a burst of 100,000 submissions took 9,446 of 10,000 nodes DOWN). The
 * cycle's timeout check was queued behind the burst, the heartbeats that came meanwhile behind
 * it, and the check judged them silent when it finally ran.
 */
class HeartbeatsBehindABusyWriterTest {
  private static final String AGENT_TOKEN = "change-me-agent-token";
  private static final String AGENT = "http://127.0.0.1:1111";

  @TempDir Path dir;

  @Test
  void heartbeatsKeepANodeUpWhileTheWriterIsBusyBeyondTheNodeTimeout() throws Exception {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "none");
    s.put("squall.partitions.gpu.nodes", "node-1");
    s.put("squall.ticks", "manual");
    s.put("squall.node-timeout", "30s");
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      ManualClock clock = ManualTime.of(c).clock();
      StateWriter writer = c.bean(StateWriter.class);
      AgentReports reports = c.bean(AgentReports.class);
      assertThat(h.post(AGENT_TOKEN, "/v1/agent/register", Map.of("name", "node-1", "address", AGENT, "gpus", 8,
          "cpus", 32, "memory_mb", 262144, "running", List.of())).status()).isEqualTo(200);

      // The writer busy with a long burst: it takes no more changes until released.
      CountDownLatch busy = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      CompletableFuture<Object> burst = writer.write(b -> {
        busy.countDown();
        try {
          release.await(2, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return null;
      });
      assertThat(busy.await(1, TimeUnit.MINUTES)).isTrue();

      clock.advance(Duration.ofSeconds(10));
      CompletableFuture<Void> timeouts = reports.checkTimeouts(); // a cycle's check, queued behind the burst
      clock.advance(Duration.ofSeconds(10));
      Instant beat = clock.instant();
      CompletableFuture<List<String>> heartbeat = reports.heartbeat("node-1", AGENT, List.of());
      // Nothing to settle: answered at once, not after the burst.
      assertThat(heartbeat).isCompleted();
      clock.advance(Duration.ofSeconds(20)); // 40 s since the registration, 20 s since the heartbeat
      release.countDown();
      burst.join();
      timeouts.join();
      heartbeat.join();

      assertThat(writer.state().node("node-1").state()).isEqualTo(NodeState.IDLE);
      JsonNode node = h.node("node-1");
      assertThat(node.get("state").asText()).isEqualTo("IDLE");
      assertThat(node.get("last_heartbeat").asText()).isEqualTo(beat.toString());

      // Silent for longer than the node timeout since that heartbeat: DOWN, as before.
      clock.advance(Duration.ofSeconds(11));
      reports.checkTimeouts().join();
      assertThat(writer.state().node("node-1").state()).isEqualTo(NodeState.DOWN);
    }
  }
}
