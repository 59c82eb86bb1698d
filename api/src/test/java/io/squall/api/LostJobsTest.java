package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.api.state.StateWriter;
import io.squall.core.model.NodeState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running job its node's agent does not hold (the launch never reached it: the controller
 * stopped right after starting the job) is requeued once its launch is older than the node
 * timeout (6 s here), and not before. The node's "agent" is a fake that takes every call, and
 * its heartbeats are sent by the test, which says what the node holds.
 */
class LostJobsTest {
  private static final Duration LONG = Duration.ofSeconds(60);

  @TempDir
  Path dir;
  @AutoClose
  private final FakeAgent agent = new FakeAgent();

  @Test
  void aRunningJobItsNodeDoesNotHoldIsRequeuedAfterTheNodeTimeout() {
    try (Controllers.Running c = Controllers.start(settings("node-1"))) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      agent.register(h, "node-1");
      String job = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 600\n"));
      time.tick(); // the cycle starts the job
      // Back at the controller before the clock moves on: the node timeout counts from then, and
      // on a busy machine the answer can come after the agent has recorded the call.
      time.awaitLaunchBack(job);

      // Just launched: a heartbeat without it may have been written before the launch arrived.
      agent.heartbeat(h, "node-1", List.of());
      assertThat(h.job(job).get("state").asText()).isEqualTo("RUNNING");
      // Held: kept running past the node timeout (heartbeats every 500 ms of controller time).
      for (int i = 0; i < 14; i++) {
        time.clock().advance(Duration.ofMillis(500));
        agent.heartbeat(h, "node-1", List.of(job));
      }
      assertThat(h.job(job).get("restart_count").asInt()).isZero();

      agent.heartbeat(h, "node-1", List.of());

      JsonNode requeued = h.job(job);
      assertThat(requeued.get("restart_count").asInt()).isEqualTo(1);
      assertThat(requeued.get("events").toString())
          .contains("node node-1 does not have the job (its agent restarted, or the launch never reached it)");
      Poll.until("the node told to drop what is left of it", LONG, () -> agent.called("DELETE /jobs/" + job));
    }
  }

  /**
   * A launch that is slow to come back (launches go out one at a time: behind 10,000 others it
   * may wait longer than the node timeout) does not make its job lost: the node's reports count
   * from when the launch came back, not from the job's start (issue 18: during a burst, thousands
   * of jobs were requeued as "not on the node" before their launch was sent).
   */
  @Test
  void aJobWhoseLaunchHasNotComeBackIsNotLostUntilTheNodeTimeoutAfterIt() {
    try (Controllers.Running c = Controllers.start(settings("node-1"))) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      agent.register(h, "node-1");
      String job = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 600\n"));
      agent.holdLaunches();
      time.tick(); // the cycle starts the job; its launch reaches the agent, which does not answer yet
      Poll.until("the launch", LONG, () -> agent.called("POST /jobs"));

      time.clock().advance(Duration.ofSeconds(7)); // past the node timeout since the start
      agent.heartbeat(h, "node-1", List.of());
      assertThat(h.job(job).get("restart_count").asInt()).as("lost while its launch is on its way").isZero();

      agent.answerLaunches(); // back now, 7 s after the start
      time.awaitLaunchBack(job);
      time.clock().advance(Duration.ofSeconds(5));
      agent.heartbeat(h, "node-1", List.of());
      assertThat(h.job(job).get("restart_count").asInt()).as("within the node timeout of its launch").isZero();
      time.clock().advance(Duration.ofSeconds(2));
      agent.heartbeat(h, "node-1", List.of());
      assertThat(h.job(job).get("restart_count").asInt()).isEqualTo(1);
    }
  }

  /**
   * A job left on a node marked DOWN (its launch got no answer, then another job's launch failed
   * there) is requeued once the node's agent has been silent for the node timeout: nothing else
   * would report it.
   */
  @Test
  void aJobLeftOnADownNodeWhoseAgentWentSilentIsRequeuedAfterTheNodeTimeout() {
    try (Controllers.Running c = Controllers.start(settings("node-[1-2]"))) {
      Http h = new Http(c.url());
      ManualTime time = ManualTime.of(c);
      agent.register(h, "node-1");
      String job = Long.toString(h.submit("#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\nsleep 600\n"));
      time.tick();
      Poll.until("the launch", LONG, () -> agent.called("POST /jobs"));
      c.bean(StateWriter.class).write(b -> {
        b.update(b.node("node-1").withState(NodeState.DOWN, "launch failed: agent unreachable"), true);
        return null;
      }).join();

      time.tickAfter(Duration.ofSeconds(5)); // silent, but not for the node timeout yet
      assertThat(h.job(job).get("restart_count").asInt()).isZero();
      time.tickAfter(Duration.ofSeconds(2));
      JsonNode requeued = h.job(job);
      assertThat(requeued.get("restart_count").asInt()).isEqualTo(1);
      assertThat(requeued.get("events").toString())
          .contains("node node-1 is DOWN and Not responding (no heartbeat for 6 s)");
    }
  }

  /** A controller with {@code nodes}, a node timeout of 6 s and a manual clock the test moves past it. */
  private Map<String, Object> settings(String nodes) {
    return Controllers.manualSettings(dir.resolve("data"), null, nodes, "6s");
  }
}
