package io.squall.core.utilisation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.model.NodeState;
import io.squall.core.utilisation.GpuSample.NodeLoad;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class GpuHistoryTest {
  private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");

  @Test
  void everyGpuIsCountedOnceByWhatItsNodeIsDoing() {
    GpuSample s = GpuSample.of(T0, List.of(
        new NodeLoad(NodeState.ALLOCATED, 8, 8),
        new NodeLoad(NodeState.MIXED, 8, 3),
        new NodeLoad(NodeState.IDLE, 8, 0),
        new NodeLoad(NodeState.POWERING_UP, 8, 8), // allocated to a job, booting
        new NodeLoad(NodeState.CLOUD, 8, 0),
        new NodeLoad(NodeState.POWERING_DOWN, 4, 0),
        new NodeLoad(NodeState.DRAINING, 8, 2),
        new NodeLoad(NodeState.DOWN, 8, 0)));
    assertThat(s).isEqualTo(new GpuSample(T0, 8 + 3 + 8 + 2, 5 + 8 + 4 + 6, 8, 8));
    assertThat(s.allocated() + s.idle() + s.poweredDown() + s.down()).isEqualTo(60);
    // A node cannot lend more GPUs than it has.
    assertThat(GpuSample.of(T0, List.of(new NodeLoad(NodeState.ALLOCATED, 4, 9))).allocated()).isEqualTo(4);
    assertThatThrownBy(() -> new NodeLoad(NodeState.IDLE, -1, 0)).hasMessageContaining("cannot be negative");
  }

  @Test
  void oneSamplePerIntervalIsKeptForTheKeepWindow() {
    GpuHistory h = new GpuHistory(Duration.ofSeconds(10), Duration.ofSeconds(30));
    for (int second = 0; second <= 60; second++) {
      h.offer(new GpuSample(T0.plusSeconds(second), second, 0, 0, 0));
    }
    // 0, 10, ..., 60 were due; those older than 30 s before the last are gone.
    assertThat(h.since(Instant.EPOCH)).extracting(GpuSample::allocated).containsExactly(30, 40, 50, 60);
    assertThat(h.since(T0.plusSeconds(45))).extracting(GpuSample::allocated).containsExactly(50, 60);
    assertThat(h.due(T0.plusSeconds(69))).isFalse();
    assertThat(h.due(T0.plusSeconds(70))).isTrue();
  }

  @Test
  void nonsenseIntervalsAreRefused() {
    assertThatThrownBy(() -> new GpuHistory(Duration.ZERO, Duration.ofHours(1))).hasMessageContaining("positive");
    assertThatThrownBy(() -> new GpuHistory(Duration.ofMinutes(2), Duration.ofMinutes(1)))
        .hasMessageContaining("at least one interval");
  }
}
