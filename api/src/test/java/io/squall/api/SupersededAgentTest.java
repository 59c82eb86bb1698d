package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fencing: once a second agent registers for a node, the controller takes heartbeats for the
 * node from that agent only; the first is answered 409 (and stands down, killing its jobs:
 * {@code RegistrationTest} in the agent module), whatever the node's state, so it cannot take
 * the node back by registering again after a 404.
 */
class SupersededAgentTest {
  private static final String AGENT_TOKEN = "change-me-agent-token";
  private static final String FIRST = "http://127.0.0.1:1111";
  private static final String SECOND = "http://127.0.0.1:2222";

  @TempDir
  Path dir;

  private static Http.Answer register(Http h, String address) {
    return h.post(AGENT_TOKEN, "/v1/agent/register", Map.of("name", "node-1", "address", address, "gpus", 8,
        "cpus", 32, "memory_mb", 262144, "running", List.of()));
  }

  private static Http.Answer heartbeat(Http h, Map<String, Object> body) {
    return h.post(AGENT_TOKEN, "/v1/agent/heartbeat", body);
  }

  @Test
  void aHeartbeatFromAnAgentAnotherRegisteredAfterIsRefusedWith409() {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "none");
    s.put("squall.partitions.gpu.nodes", "node-1");
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      assertThat(register(h, FIRST).status()).isEqualTo(200);
      assertThat(heartbeat(h, Map.of("name", "node-1", "address", FIRST, "running", List.of())).status())
          .isEqualTo(200);

      assertThat(register(h, SECOND).status()).isEqualTo(200);
      Http.Answer refused = heartbeat(h, Map.of("name", "node-1", "address", FIRST, "running", List.of()));
      assertThat(refused.status()).as(refused.body()).isEqualTo(409);
      assertThat(refused.error()).isEqualTo("node node-1 is served by the agent at " + SECOND
          + ", which registered after this one (" + FIRST + "): this agent is superseded");
      assertThat(heartbeat(h, Map.of("name", "node-1", "address", SECOND, "running", List.of())).status())
          .isEqualTo(200);
      // An agent that does not say where it listens (a hand-written client) is taken as before.
      assertThat(heartbeat(h, Map.of("name", "node-1", "running", List.of())).status()).isEqualTo(200);
      // The address is checked as every text is.
      assertThat(heartbeat(h, Map.of("name", "node-1", "address", "x\u0000y", "running", List.of())).status())
          .isEqualTo(400);
    }
  }
}
