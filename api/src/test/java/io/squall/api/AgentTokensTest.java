package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.agent.NodeTokens;
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

      // Interruption reports say what a metadata service can say, about the caller's own node.
      Map<String, Object> notice = new java.util.HashMap<>(Map.of("name", "node-1", "source", "AWS_METADATA",
          "kind", "TERMINATION", "deadline", java.time.Instant.now().plusSeconds(120).toString()));
      assertThat(h.post(node1, "/v1/agent/interruptions", notice).status()).isEqualTo(200);
      notice.put("source", "OPERATOR");
      assertThat(h.post(node1, "/v1/agent/interruptions", notice).error()).startsWith("source: an agent reports");
      notice.put("source", "gce_metadata");
      notice.put("kind", "GONE");
      assertThat(h.post(node1, "/v1/agent/interruptions", notice).error()).startsWith("kind: an agent reports");
      notice.put("kind", "TERMINATION");
      notice.put("deadline", "9999-01-01T00:00:00Z");
      assertThat(h.post(node1, "/v1/agent/interruptions", notice).error()).startsWith("deadline: at most 60 minutes");
      notice.put("deadline", "soon");
      assertThat(h.post(node1, "/v1/agent/interruptions", notice).status()).isEqualTo(400);
      notice.put("name", "node-2");
      assertThat(h.post(node1, "/v1/agent/interruptions", notice).status()).isEqualTo(403);
      // A checkpoint of a job that does not run on the node is refused.
      Http.Answer ckpt = h.post(node1, "/v1/agent/checkpoints", Map.of("name", "node-1", "job", "7", "step", 1,
          "path", "/x"));
      assertThat(ckpt.status()).isEqualTo(409);
      assertThat(ckpt.error()).isEqualTo("job 7 is not running on node node-1");

      // The cluster token (agents started by hand) still speaks for any node.
      assertThat(h.post(CLUSTER_TOKEN, "/v1/agent/register", registration("node-2")).status()).isEqualTo(200);
      // Even it must say which node a notice is about.
      notice.remove("name");
      notice.put("deadline", java.time.Instant.now().plusSeconds(120).toString());
      Http.Answer nameless = h.post(CLUSTER_TOKEN, "/v1/agent/interruptions", notice);
      assertThat(nameless.status()).isEqualTo(400);
      assertThat(nameless.error()).isEqualTo("name: required");
    }
  }
}
