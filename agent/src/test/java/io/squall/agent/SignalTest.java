package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SignalTest extends OneAgentTest {
  private void launchAndAwaitStart(String job, String script) {
    AgentCalls.launch(agent.address(), AgentCalls.batch(job, script, jobDir, Map.of("PATH", "/usr/bin:/bin")));
    Eventually.until("job " + job + " to start", Eventually.LONG, () -> output().contains("started\n"));
  }

  private void signal(String job, String signal, int killWait) {
    AgentCalls.Response r = AgentCalls.post(agent.address(), "/jobs/" + job + "/signal", FakeController.TOKEN,
        Map.of("signal", signal, "kill_wait_seconds", killWait));
    assertThat(r.status()).isEqualTo(200);
  }

  private void signalBatchOnly(String job, String signal, boolean batchOnly) {
    AgentCalls.Response r = AgentCalls.post(agent.address(), "/jobs/" + job + "/signal", FakeController.TOKEN,
        Map.of("signal", signal, "kill_wait_seconds", 0, "batch_only", batchOnly));
    assertThat(r.status()).isEqualTo(200);
  }

  /** A shell that traps USR1, a child subshell that traps it too, and a sleep that USR1 would kill. */
  private static final String SHELL_AND_CHILDREN = """
      trap 'echo shell got USR1' USR1
      ( trap 'echo child got USR1; exit 0' USR1; trap 'echo child got WINCH' WINCH; touch child.ready; while true; do sleep 0.1; done ) &
      sleep 600 &
      echo $! > sleeper.pid
      while [ ! -f child.ready ]; do sleep 0.1; done
      echo started
      while [ ! -f stop ]; do sleep 0.1; done
      """;

  private String output() {
    try {
      Path out = jobDir.resolve("out");
      return Files.exists(out) ? Files.readString(out) : "";
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private long pid(String file) throws IOException {
    Path p = jobDir.resolve(file);
    Eventually.until(file, Eventually.LONG, () -> Files.exists(p) && p.toFile().length() > 0);
    return Long.parseLong(Files.readString(p).trim());
  }

  private static boolean dead(long pid) {
    return ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true);
  }

  @Test
  void termEndsAScriptAndItsChildrenAndIsReportedAsSignal15() throws Exception {
    launchAndAwaitStart("60", "sleep 600 &\necho $! > child.pid\necho started\nsleep 600\n");
    long child = pid("child.pid");

    signal("60", "TERM", 60);

    JsonNode exit = controller.awaitExit("60", Eventually.LONG);
    assertThat(exit.path("exit_code").asInt()).isEqualTo(143);
    assertThat(exit.path("signal").asInt()).isEqualTo(15);
    Eventually.until("the background child to die", Eventually.LONG, () -> dead(child));
  }

  @Test
  void aScriptThatIgnoresTermIsKilledAfterTheKillWait() throws Exception {
    launchAndAwaitStart("61", "trap '' TERM\necho started\nwhile true; do sleep 0.2; done\n");
    Instant signalled = Instant.now();

    signal("61", "SIGTERM", 2);

    JsonNode exit = controller.awaitExit("61", Eventually.LONG);
    assertThat(exit.path("exit_code").asInt()).isEqualTo(137);
    assertThat(exit.path("signal").asInt()).isEqualTo(9);
    assertThat(Duration.between(signalled, Instant.now())).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
  }

  @Test
  void otherSignalsReachTheScriptsTraps() {
    launchAndAwaitStart("62", "trap 'echo got USR1; exit 0' USR1\necho started\nwhile true; do sleep 0.2; done\n");

    signal("62", "USR1", 0);

    JsonNode exit = controller.awaitExit("62", Eventually.LONG);
    assertThat(exit.path("exit_code").asInt()).isZero();
    assertThat(output()).contains("got USR1\n");
  }

  @Test
  void batchOnlyReachesTheBatchShellAloneAsSlurmsBColon() throws Exception {
    launchAndAwaitStart("65", SHELL_AND_CHILDREN);
    long sleeper = pid("sleeper.pid");

    signalBatchOnly("65", "USR1", true);

    Eventually.until("the shell's trap", Eventually.LONG, () -> output().contains("shell got USR1\n"));
    // A barrier rather than a pause, which a busy machine can outlast: WINCH (28, ignored by
    // default, so the sleep lives) to every process. Bash runs pending traps in signal order, so a
    // USR1 (10) the child had been sent would show before its WINCH, which comes later still.
    signalBatchOnly("65", "WINCH", false);
    Eventually.until("the child's trap", Eventually.LONG, () -> output().contains("child got "));
    assertThat(output()).contains("child got WINCH\n").doesNotContain("child got USR1");
    assertThat(dead(sleeper)).isFalse();
    Files.writeString(jobDir.resolve("stop"), "");
    assertThat(controller.awaitExit("65", Eventually.LONG).path("exit_code").asInt()).isZero();
  }

  @Test
  void withoutBatchOnlyTheShellAndItsChildrenAllGetTheSignal() throws Exception {
    launchAndAwaitStart("66", SHELL_AND_CHILDREN);
    long sleeper = pid("sleeper.pid");

    signalBatchOnly("66", "USR1", false);

    Eventually.until("both traps", Eventually.LONG,
        () -> output().contains("shell got USR1\n") && output().contains("child got USR1\n"));
    Eventually.until("the sleep to die of USR1", Eventually.LONG, () -> dead(sleeper));
    Files.writeString(jobDir.resolve("stop"), "");
    controller.awaitExit("66", Eventually.LONG);
  }

  @Test
  void deleteKillsWhateverIsLeftEvenOrphans() throws Exception {
    // The child is started in a subshell that exits, so it is no one's descendant any more.
    launchAndAwaitStart("63", "( sleep 600 & echo $! > orphan.pid )\necho $$ > script.pid\necho started\nsleep 600\n");
    long orphan = pid("orphan.pid");
    long script = pid("script.pid");

    AgentCalls.Response r = AgentCalls.delete(agent.address(), "/jobs/63", FakeController.TOKEN);

    assertThat(r).isEqualTo(new AgentCalls.Response(200, "{\"over\":true}"));
    Eventually.until("the script and the orphan to die", Eventually.LONG, () -> dead(script) && dead(orphan));
    assertThat(AgentCalls.delete(agent.address(), "/jobs/63", FakeController.TOKEN).status()).isEqualTo(200);
    assertThat(agentDir.resolve("jobs/63")).doesNotExist();
  }

  @Test
  void whatAScriptLeavesBehindDiesWithIt() throws Exception {
    AgentCalls.launch(agent.address(), AgentCalls.batch("64", "sleep 600 &\necho $! > bg.pid\n", jobDir,
        Map.of("PATH", "/usr/bin:/bin")));
    long background = pid("bg.pid");

    controller.awaitExit("64", Eventually.LONG);

    Eventually.until("the background process to die", Eventually.LONG, () -> dead(background));
  }

  @Test
  void signallingAnUnknownJobIsHarmless() {
    signal("999", "TERM", 5);
    assertThat(AgentCalls.post(agent.address(), "/jobs/999/signal", FakeController.TOKEN,
        Map.of("signal", "NOPE")).status()).isEqualTo(400);
  }
}
