package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code squall checkpoint register} inside a job, through the node's agent to the controller. */
class CheckpointToolTest extends OneAgentTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private Map<String, String> env(String job) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", "/usr/bin:/bin");
    env.put("SLURM_JOB_ID", job);
    env.put("SQUALL_JOB_KEY", job);
    return env;
  }

  /** A batch job on node-1 whose SQUALL_AGENTS names the test's agent, so its tools reach it. */
  private Map<String, Object> job(URI agentAddress, String key, String script) {
    Map<String, Object> launch = AgentCalls.batch(key, script, jobDir, env(key));
    launch.put("nodes", Map.of("node-1", agentAddress.toString()));
    return launch;
  }

  private String output() throws Exception {
    return Files.readString(jobDir.resolve("out"));
  }

  /** The tool in this JVM, as the job with key {@code job} on node-1 would run it. */
  private int runTool(URI agentAddress, String job, String credential, String... args) {
    Map<String, String> env = env(job);
    env.put("SLURMD_NODENAME", "node-1");
    env.put("SQUALL_AGENTS", "node-1=" + agentAddress);
    env.put("SQUALL_JOB_CREDENTIAL", credential);
    return Tools.run(List.of(args), env, jobDir.toString(), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  /** Starts a job that runs until the test ends it; answers once it runs. */
  private void holdJob(Agent on, String key) {
    AgentCalls.launch(on.address(), job(on.address(), key,
        "echo started\nwhile [ ! -f stop-" + key + " ]; do sleep 0.1; done\n"));
    Eventually.until("job " + key + " to start", Eventually.LONG,
        () -> Files.exists(jobDir.resolve("out")) && read(jobDir.resolve("out")).contains("started\n"));
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aScriptRegistersACheckpointWithTheControllerThroughItsAgent() throws Exception {
    AgentCalls.launch(agent.address(), job(agent.address(), "70",
        "squall checkpoint register ckpt-1 --step 7\necho \"rc=$?\"\n"));

    assertThat(controller.awaitExit("70", Eventually.LONG).path("exit_code").asInt()).isZero();

    String path = jobDir.toRealPath().resolve("ckpt-1").toString();
    assertThat(output()).isEqualTo("registered checkpoint step 7: " + path + "\nrc=0\n");
    List<FakeController.Call> calls = controller.calls(CheckpointRelay.PATH);
    assertThat(calls).hasSize(1);
    assertThat(calls.get(0).body())
        .isEqualTo(JSON.valueToTree(Map.of("name", "node-1", "job", "70", "step", 7, "path", path)));
    assertThat(calls.get(0).authorization()).isEqualTo("Bearer " + FakeController.TOKEN);
  }

  @Test
  void theControllersRefusalReachesTheScriptAsExitCode1() throws Exception {
    controller.refuseCheckpoints(new FakeController.Refusal(409, "job 71 is not running on node node-1"));
    AgentCalls.launch(agent.address(), job(agent.address(), "71",
        "squall checkpoint register /data/ckpt --step=3\necho \"rc=$?\"\n"));

    controller.awaitExit("71", Eventually.LONG);

    assertThat(output()).isEqualTo("squall: checkpoint not registered: job 71 is not running on node node-1\nrc=1\n");
    assertThat(controller.calls(CheckpointRelay.PATH).get(0).body().path("path").asText()).isEqualTo("/data/ckpt");
  }

  @Test
  void anythingElseIsAUsageErrorWithExitCode2() throws Exception {
    AgentCalls.launch(agent.address(), job(agent.address(), "72", "squall checkpoint list\necho \"rc=$?\"\n"));

    controller.awaitExit("72", Eventually.LONG);

    assertThat(output()).isEqualTo("squall: error: 'squall checkpoint list' is not available inside a job\n"
        + "usage: " + SquallCommand.USAGE + "\nrc=2\n");
    assertThat(controller.calls(CheckpointRelay.PATH)).isEmpty();
  }

  @Test
  void theAgentChecksTheCredentialTheJobAndTheBody() {
    holdJob(agent, "73");
    URI a = agent.address();
    Map<String, Object> good = Map.of("step", 1, "path", "/data/c1");

    assertThat(AgentCalls.post(a, "/jobs/73/checkpoints", "cred-wrong", good).status()).isEqualTo(403);
    assertThat(AgentCalls.post(a, "/jobs/73/checkpoints", FakeController.TOKEN, good).status()).isEqualTo(403);
    assertThat(AgentCalls.post(a, "/jobs/74/checkpoints", "cred-74", good).status()).isEqualTo(404);
    assertThat(AgentCalls.post(a, "/jobs/73/checkpoints", "cred-73", Map.of("path", "/data/c1")).status())
        .isEqualTo(400);
    assertThat(AgentCalls.post(a, "/jobs/73/checkpoints", "cred-73", Map.of("step", -1, "path", "/d")).status())
        .isEqualTo(400);
    AgentCalls.Response relative = AgentCalls.post(a, "/jobs/73/checkpoints", "cred-73",
        Map.of("step", 1, "path", "c1"));
    assertThat(relative.status()).isEqualTo(400);
    assertThat(relative.body()).contains("absolute");
    assertThat(AgentCalls.post(a, "/jobs/73/checkpoints", "cred-73", "not an object").status()).isEqualTo(400);
    assertThat(controller.calls(CheckpointRelay.PATH)).isEmpty();

    AgentCalls.Response taken = AgentCalls.post(a, "/jobs/73/checkpoints", "cred-73", good);
    assertThat(taken.status()).isEqualTo(200);
    assertThat(taken.body()).isEqualTo("{\"step\":1,\"path\":\"/data/c1\"}");
  }

  @Test
  void aWrongCredentialIsRefusedToTheTool() {
    holdJob(agent, "75");

    assertThat(runTool(agent.address(), "75", "cred-wrong", "squall", "checkpoint", "register", "c", "--step", "2"))
        .isEqualTo(1);

    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo("squall: checkpoint not registered: wrong credential for job 75\n");
    assertThat(controller.calls(CheckpointRelay.PATH)).isEmpty();
  }

  @Test
  void anUnreachableControllerIsExitCode1WithTheReason(@TempDir Path otherDir) throws Exception {
    try (Agent orphan = TestAgents.start("node-1", URI.create("http://127.0.0.1:1"), otherDir)) {
      holdJob(orphan, "76");

      assertThat(runTool(orphan.address(), "76", "cred-76", "squall", "checkpoint", "register", "c", "--step=0"))
          .isEqualTo(1);

      assertThat(err.toString(StandardCharsets.UTF_8))
          .startsWith("squall: checkpoint not registered: the controller cannot be reached from node node-1 (");
      Files.writeString(jobDir.resolve("stop-76"), "");
    }
  }
}
