package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BatchJobTest extends OneAgentTest {
  private static Map<String, String> env() {
    return Map.of("PATH", "/usr/bin:/bin", "SLURM_JOB_ID", "42", "FOO", "bar baz");
  }

  @Test
  void runsTheScriptWithTheJobsEnvironmentAndReportsItsExit() throws Exception {
    String script = """
        #!/bin/bash
        echo "FOO=$FOO ARGS=$*"
        echo "CUDA=$CUDA_VISIBLE_DEVICES GPUS=$SLURM_GPUS_ON_NODE NODE=$SLURMD_NODENAME NODEID=$SLURM_NODEID"
        echo "CRED=$SQUALL_JOB_CREDENTIAL AGENTS=$SQUALL_AGENTS"
        echo "PATH=$PATH"
        echo "PWD=$(pwd)"
        echo "to stderr" >&2
        env | cut -d= -f1 | sort > env-names
        """;
    Map<String, Object> launch = AgentCalls.batch("42", script, jobDir, env());
    launch.put("args", List.of("one", "two"));
    AgentCalls.launch(agent.address(), launch);

    JsonNode exit = controller.awaitExit("42", Eventually.LONG);

    assertThat(exit.path("exit_code").asInt()).isZero();
    assertThat(exit.path("signal").isNull()).isTrue();
    assertThat(exit.path("type").asText()).isEqualTo("exit");
    assertThat(exit.path("id").asText()).isNotEmpty();
    assertThat(exit.path("time").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    String out = Files.readString(jobDir.resolve("out"));
    assertThat(out).contains("FOO=bar baz ARGS=one two\n")
        .contains("CUDA=0,1 GPUS=2 NODE=node-1 NODEID=0\n")
        .contains("CRED=cred-42 AGENTS=node-1=http://127.0.0.1:1\n")
        .contains("PATH=" + agentDir.resolve("bin") + ":/usr/bin:/bin\n")
        .contains("PWD=" + jobDir + "\n")
        .contains("to stderr\n");
    // Nothing of the agent's own environment but the login variables it lacks.
    Set<String> allowed = new HashSet<>(Set.of("PATH", "SLURM_JOB_ID", "FOO", "CUDA_VISIBLE_DEVICES",
        "SLURM_GPUS_ON_NODE", "SLURMD_NODENAME", "SLURM_NODEID", "SQUALL_JOB_CREDENTIAL", "SQUALL_AGENTS",
        "HOME", "USER", "LANG", "PWD", "SHLVL", "_", "SQUALL_AGENT_HOME"));
    assertThat(Files.readAllLines(jobDir.resolve("env-names"))).isSubsetOf(allowed);
    Eventually.until("the output shipped", Eventually.LONG, () -> controller.output("42", "stdout").equals(out));
  }

  @Test
  void aNonzeroExitIsReportedAsIs() {
    AgentCalls.launch(agent.address(), AgentCalls.batch("43", "exit 3\n", jobDir, env()));

    JsonNode exit = controller.awaitExit("43", Eventually.LONG);

    assertThat(exit.path("exit_code").asInt()).isEqualTo(3);
    assertThat(exit.path("signal").isNull()).isTrue();
  }

  @Test
  void separateStdoutAndStderrFilesAndAppendMode() throws Exception {
    Files.writeString(jobDir.resolve("o.txt"), "earlier run\n");
    Map<String, Object> launch = AgentCalls.batch("44", "#!/bin/sh\necho out\necho err >&2\n", jobDir, env());
    launch.put("stdout", jobDir.resolve("o.txt").toString());
    launch.put("stderr", "e.txt");
    launch.put("open_mode", "append");
    AgentCalls.launch(agent.address(), launch);

    controller.awaitExit("44", Eventually.LONG);

    assertThat(Files.readString(jobDir.resolve("o.txt"))).isEqualTo("earlier run\nout\n");
    assertThat(Files.readString(jobDir.resolve("e.txt"))).isEqualTo("err\n");
    Eventually.until("both streams shipped", Eventually.LONG,
        () -> controller.output("44", "stderr").equals("err\n")
            && controller.output("44", "stdout").equals("earlier run\nout\n"));
  }

  @Test
  void truncateModeReplacesWhatWasThere() throws Exception {
    Files.writeString(jobDir.resolve("out"), "earlier run\n");
    AgentCalls.launch(agent.address(), AgentCalls.batch("45", "echo fresh\n", jobDir, env()));

    controller.awaitExit("45", Eventually.LONG);

    assertThat(Files.readString(jobDir.resolve("out"))).isEqualTo("fresh\n");
  }

  @Test
  void aMissingOutputDirectoryFailsTheJobWithoutWritingAnything() throws Exception {
    Map<String, Object> launch = AgentCalls.batch("46", "touch ran\n", jobDir, env());
    launch.put("stdout", jobDir.resolve("no/such/dir/out").toString());
    AgentCalls.launch(agent.address(), launch);

    JsonNode exit = controller.awaitExit("46", Eventually.LONG);

    assertThat(exit.path("exit_code").asInt()).isEqualTo(1);
    assertThat(jobDir.resolve("ran")).doesNotExist();
    assertThat(jobDir.resolve("out")).doesNotExist();
    assertThat(jobDir.resolve("no")).doesNotExist();
  }

  @Test
  void theInputFileIsTheScriptsStdin() throws Exception {
    Files.writeString(jobDir.resolve("in.txt"), "line one\nline two\n");
    Map<String, Object> launch = AgentCalls.batch("48", "#!/bin/sh\nwc -l\n", jobDir, env());
    launch.put("stdin", "in.txt");
    AgentCalls.launch(agent.address(), launch);

    assertThat(controller.awaitExit("48", Eventually.LONG).path("exit_code").asInt()).isZero();
    assertThat(Files.readString(jobDir.resolve("out")).strip()).isEqualTo("2");
  }

  @Test
  void aMissingInputFileFailsTheJobWithoutRunningIt() throws Exception {
    Map<String, Object> launch = AgentCalls.batch("49", "touch ran\n", jobDir, env());
    launch.put("stdin", jobDir.resolve("no-such-input").toString());
    AgentCalls.launch(agent.address(), launch);

    assertThat(controller.awaitExit("49", Eventually.LONG).path("exit_code").asInt()).isEqualTo(1);
    assertThat(jobDir.resolve("ran")).doesNotExist();
  }

  @Test
  void aMissingWorkDirRunsTheScriptInTmpAsSlurmDoes() throws Exception {
    Map<String, Object> launch = AgentCalls.batch("47", "pwd\n", jobDir, env());
    launch.put("work_dir", jobDir.resolve("gone").toString());
    launch.put("stdout", jobDir.resolve("out").toString());
    launch.put("stderr", jobDir.resolve("out").toString());
    AgentCalls.launch(agent.address(), launch);

    controller.awaitExit("47", Eventually.LONG);

    assertThat(Files.readString(jobDir.resolve("out")))
        .contains("couldn't chdir to `" + jobDir.resolve("gone") + "'")
        .endsWith("/tmp\n");
  }

  @Test
  void launchIsIdempotentPerJob() throws Exception {
    Map<String, Object> launch = AgentCalls.batch("48", "echo ran >> runs\n", jobDir, env());
    AgentCalls.launch(agent.address(), launch);
    AgentCalls.launch(agent.address(), launch);

    controller.awaitExit("48", Eventually.LONG);
    AgentCalls.launch(agent.address(), launch);

    assertThat(Files.readAllLines(jobDir.resolve("runs"))).containsExactly("ran");
    assertThat(controller.exits()).hasSize(1);
  }

  @Test
  void aDeletedRunNeitherReportsItsExitNorHoldsUpTheNextRunOfItsKey() throws Exception {
    AgentCalls.launch(agent.address(), AgentCalls.batch("51", "echo $$ > first.pid\nsleep 600\n", jobDir, env()));
    Path pidFile = jobDir.resolve("first.pid");
    Eventually.until("the first run to start", Eventually.LONG, () -> pidFile.toFile().length() > 0);
    long first = Long.parseLong(Files.readString(pidFile).trim());

    AgentCalls.Response deleted = AgentCalls.delete(agent.address(), "/jobs/51?run=0", FakeController.TOKEN);
    // Answered once the run's processes are gone: the controller may start the next run elsewhere.
    assertThat(deleted).isEqualTo(new AgentCalls.Response(200, "{\"over\":true}"));
    assertThat(ProcessHandle.of(first).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
    // The deleted run's launch, coming late (it was on its way), is refused; the next run is taken.
    assertThat(AgentCalls.post(agent.address(), "/jobs", FakeController.TOKEN,
        AgentCalls.batch("51", "echo late\n", jobDir, env())).status()).isEqualTo(409);
    Map<String, Object> next = new HashMap<>(AgentCalls.batch("51",
        "echo second\nwhile [ ! -f go ]; do sleep 0.1; done\necho third\nexit 3\n", jobDir, env()));
    next.put("run", 1);
    AgentCalls.launch(agent.address(), next);

    // Shipped while it runs: the first run's end did not mark the second's output as ended.
    Eventually.until("the second run's first line shipped", Eventually.LONG,
        () -> controller.output("51", "stdout").equals("second\n"));
    Files.writeString(jobDir.resolve("go"), "");
    JsonNode exit = controller.awaitExit("51", Eventually.LONG);

    assertThat(exit.path("exit_code").asInt()).isEqualTo(3);
    assertThat(controller.exits()).hasSize(1);
    Eventually.until("the second run's output shipped in full", Eventually.LONG,
        () -> controller.output("51", "stdout").equals("second\nthird\n"));
  }

  @Test
  void listsAJobInHeartbeatsUntilTheControllerDeletesIt() throws Exception {
    AgentCalls.launch(agent.address(),
        AgentCalls.batch("49", "while [ ! -f stop ]; do sleep 0.1; done\n", jobDir, env()));

    Eventually.until("a heartbeat listing job 49", Eventually.LONG, () -> lastHeartbeatLists("[\"49\"]"));
    Files.writeString(jobDir.resolve("stop"), "");
    controller.awaitExit("49", Eventually.LONG);
    int seen = controller.calls("/v1/agent/heartbeat").size();
    Eventually.until("a heartbeat after the exit", Eventually.LONG,
        () -> controller.calls("/v1/agent/heartbeat").size() > seen);
    // Ended, but the node holds it until the controller deletes it: whether or not the exit has
    // reached the controller yet, the job is not taken for lost.
    assertThat(lastHeartbeatLists("[\"49\"]")).isTrue();

    assertThat(AgentCalls.delete(agent.address(), "/jobs/49", FakeController.TOKEN).status()).isEqualTo(200);
    Eventually.until("a heartbeat without it", Eventually.LONG, () -> lastHeartbeatLists("[]"));
  }

  private boolean lastHeartbeatLists(String jobs) {
    List<FakeController.Call> beats = controller.calls("/v1/agent/heartbeat");
    return !beats.isEmpty() && beats.get(beats.size() - 1).body().path("running").toString().equals(jobs);
  }

  @Test
  void refusesAWrongTokenAndMalformedRequests() {
    Map<String, Object> launch = AgentCalls.batch("50", "true\n", jobDir, env());
    assertThat(AgentCalls.post(agent.address(), "/jobs", "wrong", launch).status()).isEqualTo(401);
    assertThat(AgentCalls.post(agent.address(), "/jobs", FakeController.TOKEN, "not an object").status())
        .isEqualTo(400);
    launch.put("job", "../etc");
    assertThat(AgentCalls.post(agent.address(), "/jobs", FakeController.TOKEN, launch).status()).isEqualTo(400);
    assertThat(AgentCalls.post(agent.address(), "/nothing", FakeController.TOKEN, Map.of()).status()).isEqualTo(404);
    assertThat(AgentCalls.delete(agent.address(), "/jobs/50", FakeController.TOKEN).status()).isEqualTo(200);
  }
}
