package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.agent.Protocol.JobSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the controller asks of a job while its batch script is still being started. */
class NodeJobTest {
  private Process started;

  @AfterEach
  void stop() {
    if (started != null) {
      started.destroyForcibly();
    }
  }

  private static NodeJob batchJob() {
    return new NodeJob(new JobSpec("90", "cred", true, "sleep 600\n", List.of(), null, Map.of(), List.of(), null,
        null, null, null, Map.of(), null, 0));
  }

  private Launched sleeper() throws IOException {
    started = new ProcessBuilder("sleep", "600").start();
    return new Launched(started, false);
  }

  @Test
  void aScriptThatStartsAfterTheDeleteIsKilledNotKept() throws Exception {
    NodeJob job = batchJob();
    job.delete();

    Launched script = sleeper();

    assertThat(job.attachBatch(script)).isFalse();
    assertThat(script.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void aSignalThatComesWhileTheScriptStartsReachesItOnceItHas() throws Exception {
    NodeJob job = batchJob();
    assertThat(job.signal(PosixSignal.TERM)).isEmpty();

    Launched script = sleeper();

    assertThat(job.attachBatch(script)).isTrue();
    assertThat(script.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(script.process().exitValue()).isEqualTo(143);
  }

  @Test
  void aBatchOnlySignalThatComesWhileTheScriptStartsReachesItsShellAlone() throws Exception {
    NodeJob job = batchJob();
    assertThat(job.signalBatchShell(PosixSignal.TERM)).isEmpty();

    started = new ProcessBuilder("bash", "-c", "sleep 600 & echo $!; wait").start();
    // One line, not the whole stream: the sleep keeps the pipe open.
    long child = Long.parseLong(new BufferedReader(new InputStreamReader(started.getInputStream(),
        StandardCharsets.UTF_8)).readLine().trim());
    Launched script = new Launched(started, false);
    try {
      assertThat(job.attachBatch(script)).isTrue();
      assertThat(script.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(script.process().exitValue()).isEqualTo(143);
      assertThat(ProcessHandle.of(child).map(ProcessHandle::isAlive)).contains(true);
    } finally {
      ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  @Test
  void aScriptThatStartedIsSignalledAtOnce() throws Exception {
    NodeJob job = batchJob();
    Launched script = sleeper();
    assertThat(job.attachBatch(script)).isTrue();

    assertThat(job.signal(PosixSignal.TERM)).contains(script.handle());

    assertThat(script.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
  }
}
