package io.squall.api.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code bin/squall demo spot} as a user runs it: the whole story, and its timeline. */
class SpotDemoTest {
  @Test
  void theDemoTellsTheWholeStoryAndTheJobCompletes() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code = SpotDemo.run(Path.of("..", "examples", "spot-training.sh"), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(code).as(out).isZero();
    assertThat(out).containsSubsequence("RUNNING", "CHECKPOINT", "NOTICE", "SIGUSR1 sent", "PREEMPTED", "PENDING",
        "RUNNING", "COMPLETED", "restart 1: resuming from step", "done: step 60 state 80121");
  }

  @Test
  void aMissingScriptIsSaidSo() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    assertThat(SpotDemo.run(Path.of("no-such-script.sh"), new PrintStream(bytes, true, StandardCharsets.UTF_8))).isEqualTo(2);
    assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo("squall demo spot: cannot read no-such-script.sh\n");
  }
}
