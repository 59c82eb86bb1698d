package io.squall.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.sbatch.SbatchParser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CheckpointContractTest {
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");

  private static io.squall.core.sbatch.SignalSpec signalOf(String directive) {
    String script = "#!/bin/bash\n" + (directive.isEmpty() ? "" : "#SBATCH " + directive + "\n") + "true\n";
    return new SbatchParser(ZoneOffset.UTC).parse(script, "job.sh", List.of(), T0).request().control().signal();
  }

  @Test
  void theJobsOwnSignalWinsOverThePartitionsDefault() {
    assertThat(CheckpointSignal.forJob(signalOf("--signal=B:USR2@300"), "USR1"))
        .isEqualTo(new CheckpointSignal("USR2", true));
    assertThat(CheckpointSignal.forJob(signalOf("--signal=TERM@60"), "USR1"))
        .isEqualTo(new CheckpointSignal("TERM", false));
    assertThat(CheckpointSignal.forJob(signalOf(""), "USR1")).isEqualTo(new CheckpointSignal("USR1", false));
  }

  @Test
  void aRestartRestoresTheHighestStepThenTheLatest() {
    Checkpoint a = new Checkpoint(10, "/c/step-10", T0);
    Checkpoint b = new Checkpoint(20, "/c/step-20", T0.plusSeconds(5));
    Checkpoint c = new Checkpoint(20, "/c/step-20-again", T0.plusSeconds(9));
    Checkpoint older = new Checkpoint(5, "/c/step-5", T0.plusSeconds(60)); // registered late, still older work
    assertThat(Checkpoint.latest(List.of(a, c, older, b))).contains(c);
    assertThat(Checkpoint.latest(List.of())).isEmpty();
    assertThat(c.takenSince(T0.plusSeconds(9))).isTrue();
    assertThat(c.takenSince(T0.plusSeconds(10))).isFalse();
    assertThatThrownBy(() -> new Checkpoint(-1, "/x", T0)).hasMessage("step: must be 0 or more, not -1");
  }

  @Test
  void aFilesStepIsTheLastNumberInItsName() {
    assertThat(CheckpointFiles.stepOf("step-120.ckpt")).contains(120L);
    assertThat(CheckpointFiles.stepOf("run3-epoch07-step0042.pt")).contains(42L);
    assertThat(CheckpointFiles.stepOf("latest.pt")).contains(0L);
    assertThat(CheckpointFiles.stepOf("step-1234567890123456789012.pt")).isEmpty();
    assertThat(CheckpointFiles.directoryOf("/shared/ckpt", "42_3")).isEqualTo("/shared/ckpt/42_3");
    assertThat(CheckpointFiles.directoryOf("s3://bucket/ckpt/", "42")).isEqualTo("s3://bucket/ckpt/42");
    assertThat(CheckpointFiles.isPath("/shared/ckpt")).isTrue();
    assertThat(CheckpointFiles.isPath("s3://bucket/ckpt")).isFalse();
  }

  @Test
  void lostWorkIsTheGpuTimeSinceTheRunsLastCheckpoint() {
    Instant stop = T0.plusSeconds(100);
    assertThat(LostWork.gpuSeconds(T0, Optional.empty(), stop, 16)).isEqualTo(1600);
    assertThat(LostWork.gpuSeconds(T0, Optional.of(new Checkpoint(7, "/c", T0.plusSeconds(90))), stop, 16))
        .isEqualTo(160);
    // A checkpoint of an earlier run saves nothing of this one.
    assertThat(LostWork.gpuSeconds(T0, Optional.of(new Checkpoint(7, "/c", T0.minusSeconds(5))), stop, 8))
        .isEqualTo(800);
  }
}
