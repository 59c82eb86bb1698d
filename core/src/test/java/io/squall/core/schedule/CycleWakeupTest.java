package io.squall.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CycleWakeupTest {
  private static final Instant T = Instant.parse("2026-11-27T00:00:00Z");

  @Test
  void aWokenCycleRunsAtLeastTheMinimumGapAfterTheLastAndAFewMillisecondsAfterTheWake() {
    assertThat(CycleWakeup.delay(Duration.ZERO)).isEqualTo(Duration.ofMillis(100));
    assertThat(CycleWakeup.delay(Duration.ofMillis(30))).isEqualTo(Duration.ofMillis(70));
    assertThat(CycleWakeup.delay(Duration.ofMillis(98))).isEqualTo(Duration.ofMillis(5));
    assertThat(CycleWakeup.delay(Duration.ofSeconds(1))).isEqualTo(Duration.ofMillis(5));
    assertThat(CycleWakeup.cycleAt(T, null)).isEqualTo(T.plusMillis(5));
    assertThat(CycleWakeup.cycleAt(T.plusMillis(40), T)).isEqualTo(T.plusMillis(100));
    assertThat(CycleWakeup.cycleAt(T.plusSeconds(10), T)).isEqualTo(T.plusSeconds(10).plusMillis(5));
  }
}
