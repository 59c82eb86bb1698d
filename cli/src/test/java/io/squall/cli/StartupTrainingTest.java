package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The run the class-data sharing archive is recorded from: every verb in it must succeed against
 * the stand-in service, or the classes of what follows the failure (reading the answer, printing
 * it) stay out of the archive and each real call loads them from the jar again. A change to an
 * answer's record that the stand-in's answers no longer satisfy fails here.
 */
class StartupTrainingTest {
  @Test
  void everyTrainingCallSucceedsAgainstTheStandInService() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    var statuses = StartupTraining.run(new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));

    assertThat(statuses).as(err.toString(StandardCharsets.UTF_8)).hasSize(9).containsOnly(0);
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("JobId=7 JobName=train", "gpu*", "7 train PENDING");
  }
}
