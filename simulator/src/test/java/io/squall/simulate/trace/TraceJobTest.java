package io.squall.simulate.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceJobTest {
  private static final Instant T0 = Instant.parse("2026-11-20T08:00:00Z");

  private static TraceJob job(String id, Instant submit) {
    return new TraceJob(id, submit, null, null, null, null, 1, 8, Duration.ofMinutes(5), null, null);
  }

  @Test
  void aJobNeedsANodeNoNegativeGpusOrRuntimeAndAPositiveLimitIfAny() {
    assertThatThrownBy(() -> new TraceJob("1", T0, null, null, null, null, 0, 8, Duration.ZERO, null, null))
        .hasMessage("job 1: nodes must be at least 1, got 0");
    assertThatThrownBy(() -> new TraceJob("2", T0, null, null, null, null, 1, -1, Duration.ZERO, null, null))
        .hasMessage("job 2: GPUs per node must be 0 or more, got -1");
    assertThatThrownBy(() -> new TraceJob("3", T0, null, null, null, null, 1, 1, Duration.ofSeconds(-1), null, null))
        .hasMessage("job 3: runtime must be 0 or more, got PT-1S");
    assertThatThrownBy(() -> new TraceJob("4", T0, null, null, null, null, 1, 1, Duration.ZERO, Duration.ZERO, null))
        .hasMessageStartingWith("job 4: a time limit must be positive");
    TraceJob zeroGpusZeroRuntime = new TraceJob("5", T0, null, null, null, null, 1, 0, Duration.ZERO, null, null);
    assertThat(zeroGpusZeroRuntime.gpus()).isZero();
    assertThat(new TraceJob("6", T0, null, null, null, null, 3, 8, Duration.ZERO, null, null).gpus()).isEqualTo(24);
  }

  @Test
  void aTraceListsJobsBySubmissionKeepingTheTracesOrderForTies() {
    Trace trace = new Trace(List.of(job("c", T0.plusSeconds(60)), job("a", T0), job("b2", T0.plusSeconds(30)),
        job("b1", T0.plusSeconds(30))), List.of(), Map.of("never started", 2, "job step", 1));

    assertThat(trace.jobs()).extracting(TraceJob::id).containsExactly("a", "b2", "b1", "c");
    assertThat(trace.leftOut().keySet()).containsExactly("job step", "never started");
    assertThat(trace.leftOutCount()).isEqualTo(3);
  }

  @Test
  void gangsHaveEqualNodesRoundedUpNeverDown() {
    assertThat(GangShape.packed(16, 8)).isEqualTo(new GangShape(2, 8));
    assertThat(GangShape.packed(12, 8)).isEqualTo(new GangShape(2, 6));
    assertThat(GangShape.packed(20, 8)).isEqualTo(new GangShape(3, 7)); // 21 GPUs: one more than recorded
    assertThat(GangShape.packed(4, 8)).isEqualTo(new GangShape(1, 4));
    assertThat(GangShape.packed(0, 8)).isEqualTo(new GangShape(1, 0));
    assertThat(GangShape.spread(10, 3)).isEqualTo(new GangShape(3, 4));
    assertThat(GangShape.spread(0, 2)).isEqualTo(new GangShape(2, 0));
  }
}
