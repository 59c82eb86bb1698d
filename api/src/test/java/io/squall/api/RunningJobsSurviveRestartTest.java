package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.providers.local.LocalProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Stop the controller with a job running and one pending, start it again: the agents (which
 * outlive it here, as they would on real machines) report in, the running job finishes once,
 * the pending one is still queued.
 */
class RunningJobsSurviveRestartTest {
  private static final Duration LONG = Duration.ofSeconds(90);

  @TempDir
  Path dir;

  @Test
  void nothingIsLostOrStartedTwice() throws IOException {
    int port = freePort();
    Map<String, Object> settings = settings(port);
    try (LocalProvider nodes = new LocalProvider(dir.resolve("nodes"))) {
      long running;
      long held;
      try (Controllers.Running first = Controllers.start(settings)) {
        Http h = startNodes(nodes, port, first);
        running = submit(h, "#!/bin/bash\n#SBATCH --output=run.out\ntouch started\nsleep 6\necho finished\n",
            List.of());
        held = submit(h, "#!/bin/bash\n#SBATCH --output=/dev/null\necho later\n", List.of("--hold"));
        // Started on its node, not only RUNNING here: a launch still on its way when the
        // controller stops never arrives, and the next controller requeues the job (LostJobsTest).
        Poll.until("the job's script to start", LONG, () -> Files.exists(dir.resolve("started")));
      }
      try (Controllers.Running second = Controllers.startAgainOn(port, settings)) {
        Http h = new Http(second.url());
        assertThat(h.jobState(running)).isEqualTo("RUNNING");
        assertThat(h.jobState(held)).isEqualTo("PENDING");
        JsonNode done = Poll.until("the running job to finish", LONG, () -> {
          JsonNode j = h.get("alice-token", "/v1/jobs/" + running).json();
          return j.get("end_time").isNull() ? null : j;
        });
        assertThat(done.get("state").asText()).as(done.toPrettyString()).isEqualTo("COMPLETED");
        assertThat(done.get("restart_count").asInt()).isZero();
        assertThat(done.get("events").findValuesAsText("state")).containsExactly("PENDING", "RUNNING", "COMPLETED");
        assertThat(Files.readString(dir.resolve("run.out"))).isEqualTo("finished\n");
        assertThat(h.post("alice-token", "/v1/jobs/" + held + "/release", null).status()).isEqualTo(200);
        Poll.until("the released job to complete", LONG, () -> h.jobState(held).equals("COMPLETED"));
      }
    }
  }

  @Test
  void anInteractiveAllocationKeepsItsNodesAndTakesStepsAcrossARestart() throws IOException {
    int port = freePort();
    Map<String, Object> settings = settings(port);
    try (LocalProvider nodes = new LocalProvider(dir.resolve("nodes"))) {
      long id;
      LoginNode login = new LoginNode(Files.createDirectories(dir.resolve("login")), "http://127.0.0.1:" + port);
      Map<String, String> inside = Map.of();
      try (Controllers.Running first = Controllers.start(settings)) {
        Http h = startNodes(nodes, port, first);
        id = h.submit(Map.of("interactive", true, "argv", List.of("-N1"), "script_name", "sh"));
        Poll.until("the allocation to run", LONG, () -> h.jobState(id).equals("RUNNING"));
        inside = Map.of("SLURM_JOB_ID", Long.toString(id));
        // A step ran: the node holds the allocation (its launch arrived before the controller stopped).
        LoginNode.Run step = login.run(inside, "alice-token", "srun", "bash", "-c", "echo step $SLURM_STEP_ID");
        assertThat(step.out()).as(step.toString()).isEqualTo("step 0\n");
      }
      try (Controllers.Running second = Controllers.startAgainOn(port, settings)) {
        Http h = new Http(second.url());
        JsonNode j = h.job(id);
        assertThat(j.get("state").asText()).isEqualTo("RUNNING");
        assertThat(j.get("batch").asBoolean()).as("still an allocation, not a batch job").isFalse();
        LoginNode.Run step = login.run(inside, "alice-token", "srun", "bash", "-c", "echo again on $SLURMD_NODENAME");
        assertThat(step.status()).as(step.toString()).isZero();
        assertThat(step.out()).isEqualTo("again on " + j.get("nodes").asText() + "\n");
        assertThat(h.post("alice-token", "/v1/jobs/" + id + "/complete", Map.of("exit_code", 0)).status())
            .isEqualTo(200);
        assertThat(h.jobState(id)).isEqualTo("COMPLETED");
      }
    }
  }

  @Test
  void aDrainUnderWayIsCarriedOnByTheNextController() throws IOException {
    int port = freePort();
    Map<String, Object> settings = settings(port);
    settings.put("squall.partitions.gpu.interruption-margin", "2s");
    try (LocalProvider nodes = new LocalProvider(dir.resolve("nodes"))) {
      long job;
      String node;
      try (Controllers.Running first = Controllers.start(settings)) {
        Http h = startNodes(nodes, port, first);
        // Ignores the checkpoint signal: only the drain's deadline stops it.
        job = submit(h, "#!/bin/bash\n#SBATCH --gres=gpu:8 --output=/dev/null\ntrap '' USR1\n"
            + "if [ \"$SLURM_RESTART_COUNT\" = 0 ]; then touch started; sleep 90; fi\n", List.of());
        Poll.until("the job's script to start", LONG, () -> Files.exists(dir.resolve("started")));
        node = h.get("alice-token", "/v1/jobs/" + job).json().get("nodes").asText();
        Http.Answer a = h.post("admin-token", "/v1/nodes/" + node + "/interrupt", Map.of("notice_seconds", 25));
        assertThat(a.status()).as(a.body()).isEqualTo(202);
        Poll.until("the node draining", LONG, () -> h.get("admin-token", "/v1/nodes").json().get("nodes").toString()
            .contains("\"state\":\"DRAINING\"") ? true : null);
      }
      try (Controllers.Running second = Controllers.startAgainOn(port, settings)) {
        Http h = new Http(second.url());
        JsonNode done = Poll.until("the job stopped by the restored drain and run again", LONG, () -> {
          JsonNode j = h.get("alice-token", "/v1/jobs/" + job).json();
          return j.get("state").asText().equals("COMPLETED") ? j : null;
        });
        assertThat(done.get("restart_count").asInt()).isEqualTo(1);
        assertThat(done.get("events").findValuesAsText("state")).contains("PREEMPTED");
        // Where it ran again is not asserted: on a busy machine its requeue backoff can outlast the
        // drain, and then the node it left (whose hand-started agent registers it again) is as good
        // as any. A DRAINING node takes no job: the restart count and PREEMPTED say it was stopped.
        // And the drain ended at the deadline: the node is no longer DRAINING (given up: DOWN; its
        // hand-started agent, which no provider stops here, may register it again).
        Poll.until("the drain over", LONG, () -> h.get("admin-token", "/v1/nodes").json().get("nodes")
            .toString().contains("\"name\":\"" + node + "\",\"state\":\"DRAINING\"") ? null : true);
        assertThat(h.get("admin-token", "/v1/interruptions?job=" + job).json().get("interruptions").get(0)
            .get("outcome").asText()).isEqualTo("stopped without a new checkpoint; requeued");
      }
    }
  }

  private static int freePort() {
    return Controllers.restartablePort();
  }

  /** A controller on a fixed port (the agents must find the next one there) with provider none. */
  private Map<String, Object> settings(int port) {
    Map<String, Object> settings = Controllers.settings(dir.resolve("data"), null, "none");
    settings.put("micronaut.server.port", port);
    settings.put("squall.partitions.gpu.nodes", "node-[1-2]");
    return settings;
  }

  /** Starts node-1 and node-2 as agents that outlive the controller; answers once both are IDLE. */
  private static Http startNodes(LocalProvider nodes, int port, Controllers.Running controller) {
    List<NodeLaunch> launches = List.of("node-1", "node-2").stream()
        .map(n -> new NodeLaunch(new Node(n, 8, "h100", 32, 262144, Set.of(), "gpu-pg1", NodeState.DOWN),
            "http://127.0.0.1:" + port, "change-me-agent-token"))
        .toList();
    nodes.launch(new LaunchRequest("test", "gpu", launches, launches.size(), nodes.offerings(List.of("local")).get(0),
        null, Map.of(), "restart-test"));
    Http h = new Http(controller.url());
    Poll.until("2 nodes", LONG, () -> h.get("admin-token", "/v1/nodes").json().get("nodes")
        .findValuesAsText("state").stream().filter("IDLE"::equals).count() == 2);
    return h;
  }

  private long submit(Http h, String script, List<String> argv) {
    return h.submit(Map.of("script", script, "argv", argv, "submit_dir", dir.toString()));
  }

}
