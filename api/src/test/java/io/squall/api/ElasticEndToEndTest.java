package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An elastic partition end to end on the local provider: nodes start powered down (CLOUD), a
 * gang's nodes are launched together when it is submitted, run it as real agent processes, and go
 * back after SuspendTime; a zone without capacity makes the fleet fall back to the next one. The
 * controller runs on a manual clock ({@code squall.ticks: manual}): the test ticks the scheduler,
 * the drain and the fleet and moves time past the batch window and SuspendTime; it waits only
 * for what real processes do (agents registering, jobs running).
 */
class ElasticEndToEndTest {
  private static final Duration LONG = Duration.ofSeconds(180);

  @TempDir Path dir;

  private Map<String, Object> settings(List<String> zones, List<String> noCapacity) {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "local");
    s.put("squall.partitions.gpu.nodes", "cloud-[1-8]");
    s.put("squall.partitions.gpu.placement-groups", 2);
    s.put("squall.partitions.gpu.elastic", true);
    s.put("squall.ticks", "manual");
    s.put("squall.partitions.gpu.suspend-time", "3s");
    s.put("squall.partitions.gpu.batch-window", BATCH_WINDOW.toMillis() + "ms");
    s.put("squall.local.zones", zones);
    s.put("squall.local.no-capacity-zones", noCapacity);
    return s;
  }

  private static List<JsonNode> launches(Http h) {
    List<JsonNode> out = new ArrayList<>();
    h.get("admin-token", "/v1/launches").json().get("launches").forEach(out::add);
    return out;
  }

  private static final Duration BATCH_WINDOW = Duration.ofMillis(500);

  @Test
  void aGangIsLaunchedInOneCallIntoOnePlacementGroupRunsAndIsReclaimed() throws Exception {
    try (Controllers.Running c = Controllers.start(settings(List.of("local"), List.of()))) {
      Http h = new Http(c.url());
      assertThat(h.nodeState("cloud-1")).isEqualTo("CLOUD");
      long job = h.submit("#!/bin/bash\n#SBATCH -N 4 --gres=gpu:8 --output=" + dir.resolve("gang.out")
          + "\nsrun --label hostname\n");
      ManualTime.of(c).allocateAndLaunch(BATCH_WINDOW);
      JsonNode done = Poll.until("the gang to complete", LONG, () -> {
        JsonNode j = h.get("alice-token", "/v1/jobs/" + job).json();
        return j.get("state").asText().equals("COMPLETED") ? j : null;
      });
      // Allocated, then its nodes launched (the event says as what and why), running, done.
      assertThat(done.get("events").findValuesAsText("state")).containsExactly("PENDING", "CONFIGURING", "CONFIGURING",
          "RUNNING", "COMPLETED");
      assertThat(done.get("events").get(2).get("reason").asText()).startsWith("nodes launched as ");
      List<JsonNode> calls = launches(h);
      assertThat(calls).hasSize(1);
      assertThat(calls.get(0).get("nodes").asText()).isEqualTo("cloud-[1-4]");
      assertThat(calls.get(0).get("state").asText()).isEqualTo("LAUNCHED");
      assertThat(calls.get(0).get("placement_group").asText()).isEqualTo("squall-gpu-pg1-local");
      assertThat(Files.readAllLines(dir.resolve("gang.out"))).hasSize(4);
      // Idle for SuspendTime (3 s): given back.
      ManualTime time = ManualTime.of(c);
      time.tick(); // the fleet sees them idle from now
      time.tickAfter(Duration.ofSeconds(3).minusMillis(1));
      assertThat(h.nodeState("cloud-1")).isEqualTo("IDLE");
      time.tickAfter(Duration.ofMillis(1)); // suspended: instances terminated (the agents stopped), nodes powered down
      assertThat(List.of("cloud-1", "cloud-2", "cloud-3", "cloud-4")).allSatisfy(n ->
          assertThat(h.nodeState(n)).isEqualTo("CLOUD"));
      assertThat(h.get("admin-token", "/v1/instances").json().get("instances")).isEmpty();
    }
  }

  /**
   * The job starts when the last of its nodes registers, whichever that is; the batch node
   * registering last once made the job look lost and requeued it. Fake agents register here,
   * in that order, while the local nodes are still "booting".
   */
  @Test
  void aConfiguringJobStartsWhenItsBatchNodeRegistersLast() throws Exception {
    com.sun.net.httpserver.HttpServer agent = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
    List<String> launched = java.util.Collections.synchronizedList(new ArrayList<>());
    agent.createContext("/", ex -> {
      try (ex) {
        launched.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
        ex.sendResponseHeaders(200, 2);
        ex.getResponseBody().write("{}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      }
    });
    agent.start();
    Map<String, Object> s = settings(List.of("local"), List.of());
    s.put("squall.local.boot-delay", "10m");
    try (Controllers.Running c = Controllers.start(s)) {
      Http h = new Http(c.url());
      long job = h.submit("#!/bin/bash\n#SBATCH -N 2 --gres=gpu:8 --output=/dev/null\necho ok\n");
      ManualTime.of(c).allocateAndLaunch(BATCH_WINDOW);
      assertThat(h.jobState(job)).isEqualTo("CONFIGURING");
      String address = "http://127.0.0.1:" + agent.getAddress().getPort();
      for (String node : List.of("cloud-2", "cloud-1")) {
        Http.Answer a = h.post("change-me-agent-token", "/v1/agent/register", Map.of("name", node, "address", address,
            "gpus", 8, "cpus", 32, "memory_mb", 262144));
        assertThat(a.status()).as(a.body()).isEqualTo(200);
      }
      Poll.until("the launch on both nodes", LONG, () -> launched.size() >= 2 ? true : null);
      JsonNode j = h.get("alice-token", "/v1/jobs/" + job).json();
      assertThat(j.get("state").asText()).isEqualTo("RUNNING");
      assertThat(j.get("restart_count").asInt()).isZero();
      assertThat(launched).containsOnly("POST /jobs");
    } finally {
      agent.stop(0);
    }
  }

  @Test
  void aZoneWithoutCapacityFallsBackToTheNextOffering() {
    try (Controllers.Running c = Controllers.start(settings(List.of("zone-a", "zone-b"), List.of("zone-a")))) {
      Http h = new Http(c.url());
      long job = h.submit("#!/bin/bash\n#SBATCH --gres=gpu:1 --output=/dev/null\necho ok\n");
      ManualTime.of(c).allocateAndLaunch(BATCH_WINDOW);
      Poll.until("the job to complete", LONG, () ->
          h.get("alice-token", "/v1/jobs/" + job).json().get("state").asText().equals("COMPLETED") ? true : null);
      List<JsonNode> calls = launches(h);
      assertThat(calls).extracting(l -> l.get("offering").asText() + " " + l.get("state").asText())
          .containsExactly("local/zone-a/ON_DEMAND FAILED", "local/zone-b/ON_DEMAND LAUNCHED");
      assertThat(calls.get(0).get("detail").asText()).contains("INSUFFICIENT_CAPACITY", "InsufficientInstanceCapacity");
      // The fallback follows at once, in the same tick, not after a backoff.
      assertThat(calls.get(1).get("created").asText()).isEqualTo(calls.get(0).get("created").asText());
    }
  }
}
