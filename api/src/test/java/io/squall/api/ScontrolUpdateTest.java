package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scontrol update: a user changes their pending job (TimeLimit lowered, Partition, QOS, NumNodes,
 * Dependency, Nice), operators also raise its limit and set its priority, and operators drain and
 * resume nodes. Each change is durable and the next scheduling cycle acts on it. One node
 * (node-1) registers with a fake agent; node-2, in partition spare, never does.
 */
class ScontrolUpdateTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final String SCRIPT = "#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 600\n";

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

  private Map<String, Object> settings() {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "none");
    s.put("squall.partitions.gpu.nodes", "node-1");
    s.put("squall.partitions.gpu.max-time-minutes", "120");
    s.put("squall.partitions.spare.nodes", "node-2");
    s.put("squall.qos.high.priority", "10");
    s.put("squall.ticks", "manual");
    return s;
  }

  private void register(Http h) {
    agent.register(h, "node-1");
  }

  private static Http.Answer update(Http h, String token, Object job, Map<String, String> fields) {
    return h.post(token, "/v1/jobs/" + job + "/update", fields);
  }

  @Test
  void aUserChangesTheirPendingJobAndTheSchedulerActsOnIt() {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      register(h);
      long waiting = h.submit(Map.of("script", SCRIPT, "argv", List.of("--partition=spare", "--time=60")));
      time.tick();
      assertThat(h.jobState(waiting)).isEqualTo("PENDING");

      assertThat(update(h, "alice-token", waiting, Map.of("time_limit", "30")).status()).isEqualTo(200);
      assertThat(h.job(waiting).get("time_limit_minutes").asInt()).isEqualTo(30);
      assertThat(update(h, "alice-token", waiting, Map.of("time_limit_delta", "-10")).status()).isEqualTo(200);
      assertThat(h.job(waiting).get("time_limit_minutes").asInt()).isEqualTo(20);
      // Raising a limit is the operators' (scontrol(1): "Only the Slurm administrator or root can increase").
      Http.Answer raise = update(h, "alice-token", waiting, Map.of("time_limit", "90"));
      assertThat(raise.status()).isEqualTo(403);
      assertThat(raise.error()).startsWith("TimeLimit: only operators and administrators can raise a job's time limit");
      assertThat(update(h, "admin-token", waiting, Map.of("time_limit_delta", "+1:00:00")).status()).isEqualTo(200);
      assertThat(h.job(waiting).get("time_limit_minutes").asInt()).isEqualTo(80);
      assertThat(update(h, "alice-token", waiting, Map.of("priority", "100")).status()).isEqualTo(403);
      assertThat(update(h, "alice-token", waiting, Map.of("nice", "-5")).status()).isEqualTo(403);
      assertThat(update(h, "alice-token", waiting, Map.of("nice", "5", "qos", "high")).status()).isEqualTo(200);
      assertThat(h.job(waiting).get("qos").asText()).isEqualTo("high");
      assertThat(h.job(waiting).at("/request/nice").asInt()).isEqualTo(5);

      // Wrong values are refused in Slurm's words, naming the field, and change nothing.
      Http.Answer badTime = update(h, "alice-token", waiting, Map.of("time_limit", "soon", "qos", "normal"));
      assertThat(badTime.status()).isEqualTo(400);
      assertThat(badTime.error()).startsWith("TimeLimit=soon: ");
      assertThat(h.job(waiting).get("qos").asText()).isEqualTo("high");
      assertThat(update(h, "alice-token", waiting, Map.of("partition", "nope")).error())
          .isEqualTo("--partition=nope: invalid partition name specified");
      assertThat(update(h, "alice-token", waiting, Map.of("qos", "nope")).error())
          .isEqualTo("--qos=nope: Invalid qos specification");
      assertThat(update(h, "alice-token", waiting, Map.of("num_nodes", "2", "partition", "gpu")).error())
          .startsWith("Node count specification invalid");
      assertThat(update(h, "alice-token", waiting, Map.of("dependency", "afterok:999999")).error())
          .startsWith("--dependency=afterok:999999: Job dependency problem");
      assertThat(update(h, "alice-token", waiting, Map.of()).status()).isEqualTo(400);
      assertThat(update(h, "bob-token", waiting, Map.of("nice", "1")).status()).isEqualTo(403);
      assertThat(update(h, "alice-token", 424242, Map.of("nice", "1")).status()).isEqualTo(404);

      // Moved to the partition whose node is free, it starts at the next cycle.
      assertThat(update(h, "alice-token", waiting, Map.of("partition", "gpu")).status()).isEqualTo(200);
      time.tick();
      Poll.until("the launch", LONG, () -> agent.called("POST /jobs"));
      assertThat(h.jobState(waiting)).isEqualTo("RUNNING");
      Http.Answer running = update(h, "alice-token", waiting, Map.of("time_limit", "10"));
      assertThat(running.status()).isEqualTo(409);
      assertThat(running.error()).isEqualTo("job " + waiting + ": Job is no longer pending execution (only a pending"
          + " job can be updated)");
      assertThat(h.job(waiting).get("events").findValuesAsText("reason"))
          .contains("updated by alice: TimeLimit=30", "updated by admin: TimeLimit+=1:00:00",
              "updated by alice: Partition=gpu");
    }
  }

  @Test
  void aDependencyIsSetAndClearedAndUpdatesSurviveARestart() {
    long first;
    long second;
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      first = h.submit(Map.of("script", SCRIPT, "argv", List.of("--partition=spare")));
      second = h.submit(Map.of("script", SCRIPT, "argv", List.of("--partition=spare", "--array=0-3")));
      assertThat(update(h, "alice-token", second, Map.of("dependency", "afterok:" + first)).status()).isEqualTo(200);
      time.tick();
      assertThat(h.job(second).get("reason").asText()).isEqualTo("Dependency");
      assertThat(update(h, "alice-token", second, Map.of("dependency", "")).status()).isEqualTo(200);
      time.tick();
      assertThat(h.job(second).get("reason").asText()).isNotEqualTo("Dependency");
      // One task alone: split off its array, updated on its own.
      assertThat(update(h, "alice-token", second + "_2", Map.of("time_limit", "7")).status()).isEqualTo(200);
      assertThat(update(h, "alice-token", first, Map.of("time_limit", "9", "qos", "high")).status()).isEqualTo(200);
    }
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      JsonNode job = h.job(first);
      assertThat(job.get("time_limit_minutes").asInt()).isEqualTo(9);
      assertThat(job.get("qos").asText()).isEqualTo("high");
      assertThat(h.job(second + "_2").get("time_limit_minutes").asInt()).isEqualTo(7);
      JsonNode rest = h.job(second);
      assertThat(rest.get("array_pending").asText()).isEqualTo("[0-1,3]");
      assertThat(rest.get("time_limit_minutes").isNull()).isTrue();
      assertThat(rest.at("/request/dependency").isNull()).isTrue();
    }
  }

  @Test
  void operatorsDrainAndResumeNodes() {
    String drainedAt;
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      register(h);
      Http.Answer notOperator = h.post("alice-token", "/v1/nodes/node-1/drain", Map.of("reason", "disk"));
      assertThat(notOperator.status()).isEqualTo(403);
      assertThat(notOperator.error()).startsWith("Access/permission denied");
      assertThat(h.post("admin-token", "/v1/nodes/node-1/drain", Map.of()).error())
          .isEqualTo("reason: You must specify a reason when DOWNING or DRAINING a node. Request denied");
      assertThat(h.post("admin-token", "/v1/nodes/node-9/drain", Map.of("reason", "x")).status()).isEqualTo(404);
      assertThat(h.post("admin-token", "/v1/nodes/node-2/drain", Map.of("reason", "x")).status())
          .as("node-2 never came up").isEqualTo(409);
      assertThat(h.post("admin-token", "/v1/nodes/node-1/resume", null).status()).as("not drained").isEqualTo(409);

      assertThat(h.post("admin-token", "/v1/nodes/node-1/drain", Map.of("reason", "bad disk")).status())
          .isEqualTo(200);
      assertThat(h.nodeState("node-1")).isEqualTo("DRAINING");
      assertThat(h.node("node-1").get("reason").asText()).isEqualTo("bad disk");
      // Who set the reason and when, as sinfo -R prints them: the operator, at the controller's clock.
      assertThat(h.node("node-1").get("reason_user").asText()).isEqualTo("admin");
      assertThat(h.node("node-1").get("reason_time").asText()).isEqualTo(time.clock().instant().truncatedTo(ChronoUnit.SECONDS).toString());
      assertThat(h.node("node-2").get("reason_user").asText()).as("set by the controller").isEqualTo("squall");
      long job = h.submit(SCRIPT);
      time.tick();
      assertThat(h.jobState(job)).isEqualTo("PENDING");

      assertThat(h.post("admin-token", "/v1/nodes/node-1/resume", null).status()).isEqualTo(200);
      assertThat(h.nodeState("node-1")).isEqualTo("IDLE");
      assertThat(h.node("node-1").get("reason_user").isNull()).as("no reason, no one who set it").isTrue();
      time.tick();
      Poll.until("the launch", LONG, () -> agent.called("POST /jobs"));
      assertThat(h.jobState(job)).isEqualTo("RUNNING");
      time.clock().advance(Duration.ofMinutes(3));
      assertThat(h.post("admin-token", "/v1/nodes/node-1/drain", Map.of("reason", "after this job")).status())
          .isEqualTo(200);
      drainedAt = time.clock().instant().truncatedTo(ChronoUnit.SECONDS).toString();
    }
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      assertThat(h.nodeState("node-1")).as("a drain outlives a restart").isEqualTo("DRAINING");
      assertThat(h.node("node-1").get("reason").asText()).isEqualTo("after this job");
      register(h);
      assertThat(h.nodeState("node-1")).as("and its agent's registration").isEqualTo("DRAINING");
      assertThat(h.node("node-1").get("reason").asText()).isEqualTo("after this job");
      assertThat(h.node("node-1").get("reason_user").asText()).isEqualTo("admin");
      assertThat(h.node("node-1").get("reason_time").asText()).as("stored with the reason").isEqualTo(drainedAt);
    }
  }
}
