package io.squall.core.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ManualClockTest {
  private static final Instant T0 = Instant.parse("2026-11-25T08:00:00Z");

  @Test
  void itMovesOnlyWhenToldAndOnlyForward() {
    ManualClock clock = new ManualClock(T0);
    assertThat(clock.instant()).isEqualTo(T0);
    assertThat(clock.advance(Duration.ofSeconds(5))).isEqualTo(T0.plusSeconds(5));
    clock.set(T0.plusSeconds(5));
    clock.set(T0.plusSeconds(9));
    assertThat(clock.instant()).isEqualTo(T0.plusSeconds(9));
    assertThatThrownBy(() -> clock.set(T0)).hasMessageContaining("time goes forward only");
    assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1))).hasMessageContaining("time goes forward only");
    assertThat(clock.instant()).isEqualTo(T0.plusSeconds(9));
  }
}
