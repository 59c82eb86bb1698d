package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.agents.NodeTokens;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Agent tokens at the controller: the cluster's is good for any node, a node's own for that node only. */
class AgentTokensTest {
  private static final String CLUSTER_TOKEN = "change-me-agent-token";

  @TempDir Path dir;

  private static Map<String, Object> registration(String node) {
    return Map.of("name", node, "address", "http://127.0.0.1:9", "gpus", 8, "cpus", 32, "memory_mb", 262144);
  }

  @Test
  void aNodeTokenSpeaksForItsNodeOnly() {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "none");
    s.put("squall.partitions.gpu.nodes", "node-[1-2]");
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      NodeTokens tokens = new NodeTokens(CLUSTER_TOKEN);
      String node1 = tokens.issue("node-1");

      assertThat(h.post(node1, "/v1/agent/register", registration("node-1")).status()).isEqualTo(200);
      assertThat(h.post(node1, "/v1/agent/heartbeat", Map.of("name", "node-1")).status()).isEqualTo(200);

      Http.Answer impostor = h.post(node1, "/v1/agent/register", registration("node-2"));
      assertThat(impostor.status()).isEqualTo(403);
      assertThat(impostor.error()).isEqualTo("this agent token belongs to node node-1, not node-2");
      assertThat(h.post(node1, "/v1/agent/heartbeat", Map.of("name", "node-2")).status()).isEqualTo(403);
      assertThat(h.post(node1, "/v1/agent/events", Map.of("name", "node-2", "events", java.util.List.of()))
          .status()).isEqualTo(403);
      Http.Answer output = h.post(node1, "/v1/agent/output", Map.of("job", "1", "stream", "stdout", "offset", 0,
          "data", "not mine"));
      assertThat(output.status()).isEqualTo(403);
      assertThat(output.error()).isEqualTo("job 1 did not run on node node-1");

      // Another cluster's node token, and a node token used as a user's, are refused.
      assertThat(h.post(new NodeTokens("other").issue("node-2"), "/v1/agent/register", registration("node-2"))
          .status()).isEqualTo(401);
      assertThat(h.get(node1, "/v1/jobs").status()).isEqualTo(401);

      // The cluster token (agents started by hand) still speaks for any node.
      assertThat(h.post(CLUSTER_TOKEN, "/v1/agent/register", registration("node-2")).status()).isEqualTo(200);
    }
  }
}
