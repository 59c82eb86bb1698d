package io.squall.api.spot;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.store.HoldingRow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckpointedProgressTest {
  private static final Instant T0 = Instant.parse("2026-11-26T00:00:00Z");
  private static final Duration BOOT = Duration.ofMinutes(5);

  private static HoldingRow hold(String node, int fromMin, Integer toMin) {
    return new HoldingRow(null, "7", node, 1.0, T0.plus(Duration.ofMinutes(fromMin)),
        toMin == null ? null : T0.plus(Duration.ofMinutes(toMin)));
  }

  @Test
  void progressIsEachRunsHoldUpToTheCheckpointLessItsBoot() {
    // Run 1 on two nodes, 0-65 min (60 min after boot); run 2 from 80 min, checkpointed at 120.
    List<HoldingRow> rows = List.of(hold("a", 0, 65), hold("b", 0, 65), hold("c", 80, null));
    assertThat(CheckpointedProgress.heldUntil(rows, T0.plus(Duration.ofMinutes(120)), BOOT))
        .isEqualTo(Duration.ofMinutes(60 + 35));
    // A checkpoint during the first run's boot counts nothing.
    assertThat(CheckpointedProgress.heldUntil(rows, T0.plus(Duration.ofMinutes(3)), BOOT)).isZero();
  }
}
