package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's elastic fleet and job lifecycle driven by hand ({@code squall.ticks: manual}): the
 * test moves the controller's clock and ticks, so ten minutes of resume timeout take no time and
 * nothing is slept or polled. The local nodes "boot" for an hour: their agents never register
 * within the test.
 */
class FleetOnAManualClockTest {
  @TempDir Path dir;
  @AutoClose
  private final FakeAgent agent = new FakeAgent();

  private Map<String, Object> settings() {
    Map<String, Object> s = Controllers.settings(dir.resolve("data"), null, "local");
    s.put("squall.ticks", "manual");
    s.put("squall.partitions.gpu.nodes", "cloud-[1-2]");
    s.put("squall.partitions.gpu.elastic", true);
    s.put("squall.partitions.gpu.placement-groups", 2);
    s.put("squall.local.boot-delay", "1h");
    return s;
  }

  /** The job allocated a node, whose machine is then launched: returns the node, booting. */
  private static String launched(Http h, ManualTime time, long job) {
    time.allocateAndLaunch(Duration.ofSeconds(1));
    return h.job(job).get("nodes").asText();
  }

  private long submitOneNodeJob(Http h) {
    return h.submit("#!/bin/bash\n#SBATCH -N 1 --gres=gpu:8 --output=" + dir.resolve("out") + "\nhostname\n");
  }

  @Test
  void aNodeNotUpWithinResumeTimeoutIsReleasedItsJobRequeuedAndItComesBackAfterItsTimeDown() throws Exception {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long job = submitOneNodeJob(h);

      time.tick(); // the cycle allocates a powered-down node; the fleet waits the batch window
      assertThat(h.jobState(job)).isEqualTo("CONFIGURING");
      String node = h.job(job).get("nodes").asText();
      assertThat(h.nodeState(node)).isEqualTo("POWERING_UP");
      assertThat(h.get("admin-token", "/v1/launches").json().get("launches")).isEmpty();

      time.tickAfter(Duration.ofSeconds(1)); // the batch window is over: one launch call, recorded first
      JsonNode launches = h.get("admin-token", "/v1/launches").json().get("launches");
      assertThat(launches).hasSize(1);
      assertThat(launches.get(0).get("state").asText()).isEqualTo("LAUNCHED");
      assertThat(launches.get(0).get("nodes").asText()).isEqualTo(node);

      time.tickAfter(Duration.ofMinutes(10).minusSeconds(2));
      assertThat(h.nodeState(node)).isEqualTo("POWERING_UP"); // a second before ResumeTimeout, counted from the resume

      time.tickAfter(Duration.ofSeconds(1)); // ResumeTimeout (10 min): released, its job requeued, its instance terminated
      assertThat(h.nodeState(node)).isEqualTo("DOWN");
      JsonNode requeued = h.job(job);
      assertThat(requeued.get("state").asText()).isEqualTo("PENDING");
      assertThat(requeued.get("restart_count").asInt()).isEqualTo(1);
      assertThat(requeued.get("events").toString()).contains("not up within ResumeTimeout (10 min)");
      assertThat(h.get("admin-token", "/v1/instances").json().get("instances")).isEmpty();

      time.tickAfter(Duration.ofSeconds(5)); // DOWN for 5 s, then powered down; the job is allocated again
      assertThat(h.nodeState(node)).isEqualTo("CLOUD");
      assertThat(h.jobState(job)).isEqualTo("CONFIGURING");
    }
  }

  @Test
  void anAgentWhoseMachineWasGivenUpDoesNotTakeItsNodeBack() throws Exception {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      // Nothing launched a machine for a powered-down node: an agent that says it is one is not taken.
      Http.Answer unasked = agent.tryRegister(h, "cloud-2", List.of());
      assertThat(unasked.status()).as(unasked.body()).isEqualTo(409);
      assertThat(unasked.body()).contains("node cloud-2 is CLOUD", "its machine was given up");
      assertThat(h.nodeState("cloud-2")).isEqualTo("CLOUD");

      long job = submitOneNodeJob(h);
      String node = launched(h, time, job);
      time.tickAfter(Duration.ofMinutes(10)); // not up within ResumeTimeout: released, its machine terminated
      assertThat(h.nodeState(node)).isEqualTo("DOWN");
      assertThat(h.jobState(job)).isEqualTo("PENDING");

      // Its agent starts at last, on a machine that is being terminated: taken back, the node would
      // be IDLE and the job would start there, its launch failing once the machine is gone.
      Http.Answer late = agent.tryRegister(h, node, List.of());
      assertThat(late.status()).as(late.body()).isEqualTo(409);
      assertThat(late.body()).contains("node " + node + " is DOWN (not up within ResumeTimeout");
      time.tick(); // a cycle: the job goes to the other node, if anywhere
      assertThat(h.nodeState(node)).isEqualTo("DOWN");
      JsonNode after = h.job(job);
      assertThat(after.get("state").asText()).isIn("PENDING", "CONFIGURING");
      assertThat(after.path("nodes").asText("")).isNotEqualTo(node);
      assertThat(after.get("restart_count").asInt()).isEqualTo(1);
    }
  }

  @Test
  void aNoticeForABootingNodeRequeuesItsJobAtOnceAndGivesTheMachineUp() throws Exception {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long job = submitOneNodeJob(h);
      String node = launched(h, time, job);
      Http.Answer a = h.post("admin-token", "/v1/nodes/" + node + "/interrupt", Map.of("notice_seconds", 120));
      assertThat(a.status()).as(a.body()).isEqualTo(202);

      time.tickAfter(Duration.ofSeconds(1)); // drained; the job had not started: requeued at once; no job left: the machine goes now
      JsonNode requeued = h.job(job);
      assertThat(requeued.get("state").asText()).isIn("PENDING", "CONFIGURING");
      assertThat(requeued.get("restart_count").asInt()).isEqualTo(1);
      assertThat(requeued.get("events").toString()).contains("it had not started");
      assertThat(h.nodeState(node)).isEqualTo("DOWN");
      JsonNode hit = h.get("admin-token", "/v1/interruptions?job=" + job).json().get("interruptions").get(0);
      assertThat(hit.get("outcome").asText()).isEqualTo("stopped without a new checkpoint; requeued");
      assertThat(hit.get("lost_gpu_hours").asDouble()).isZero();

      time.tickAfter(Duration.ofSeconds(5));
      assertThat(h.nodeState(node)).isEqualTo("CLOUD");
      assertThat(h.jobState(job)).isEqualTo("CONFIGURING");
    }
  }

  @Test
  void aJobFromACloudNodeThatStoppedAnsweringWaitsUntilTheNodesMachineIsGone() throws Exception {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      long job = submitOneNodeJob(h);
      String node = launched(h, time, job);
      agent.register(h, node); // its agent: the job starts there
      time.awaitLaunchBack(Long.toString(job));
      assertThat(h.jobState(job)).isEqualTo("RUNNING");

      // The agent stops answering (a network partition): no heartbeat for the node timeout, and its
      // processes, for all the controller knows, still run. The node goes DOWN, the job is requeued.
      agent.deletedRunsLinger();
      time.tickAfter(Duration.ofSeconds(31));
      assertThat(h.nodeState(node)).isEqualTo("DOWN");
      assertThat(h.job(job).get("restart_count").asInt()).isEqualTo(1);
      // DOWN is not enough for a cloud node: its machine runs until it is terminated.
      time.tickAfter(Duration.ofSeconds(1));
      assertThat(h.jobState(job)).isEqualTo("PENDING");

      time.tickAfter(Duration.ofSeconds(5)); // DOWN for 5 s: the machine is terminated, the node back to CLOUD
      assertThat(h.nodeState(node)).isEqualTo("CLOUD");
      assertThat(h.jobState(job)).isEqualTo("PENDING");
      // The terminate was accepted; the job waits for a list of the provider's instances without it.
      time.tick(); // the cycle first (held), then the fleet's list
      assertThat(h.jobState(job)).isEqualTo("PENDING");
      time.tick();
      assertThat(h.jobState(job)).isEqualTo("CONFIGURING");
    }
  }

  @Test
  void theInterruptionListingGivesTheLatestLimitSinceATimeOldestFirstAndRefusesBadParameters() throws Exception {
    try (Controllers.Running c = Controllers.start(settings())) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      submitOneNodeJob(h);
      submitOneNodeJob(h);
      time.allocateAndLaunch(Duration.ofSeconds(1)); // both nodes launched, booting: their notices are ours
      java.util.List<String> noticed = new java.util.ArrayList<>();
      for (String[] notice : new String[][] {{"cloud-1", "rebalance"}, {"cloud-2", "rebalance"}, {"cloud-1", "termination"}}) {
        Http.Answer a = h.post("admin-token", "/v1/nodes/" + notice[0] + "/interrupt", Map.of("kind", notice[1]));
        assertThat(a.status()).as(a.body()).isEqualTo(202);
        time.tickAfter(Duration.ofMinutes(1));
      }
      h.get("admin-token", "/v1/interruptions").json().get("interruptions")
          .forEach(i -> noticed.add(i.get("noticed_at").asText()));
      assertThat(noticed).hasSize(3).isSorted();

      JsonNode latestTwo = h.get("admin-token", "/v1/interruptions?limit=2").json();
      assertThat(latestTwo.get("truncated").asBoolean()).isTrue();
      assertThat(latestTwo.get("interruptions").findValuesAsText("noticed_at")).isEqualTo(noticed.subList(1, 3));
      JsonNode sinceSecond = h.get("admin-token", "/v1/interruptions?since=" + noticed.get(1)).json();
      assertThat(sinceSecond.get("truncated").asBoolean()).isFalse();
      assertThat(sinceSecond.get("interruptions").findValuesAsText("node")).containsExactly("cloud-2", "cloud-1");

      Http.Answer badLimit = h.get("admin-token", "/v1/interruptions?limit=0");
      assertThat(badLimit.status()).isEqualTo(400);
      assertThat(badLimit.body()).contains("limit=0: expected a whole number from 1 to 10000");
      Http.Answer badSince = h.get("admin-token", "/v1/interruptions?since=yesterday");
      assertThat(badSince.status()).isEqualTo(400);
      assertThat(badSince.body()).contains("since=yesterday");
    }
  }
}
