package io.squall.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CheckpointingTest {
  private static final Instant START = Instant.parse("2026-11-21T08:00:00Z");
  private static final Checkpointing ON_SIGNAL = Checkpointing.onSignal(Duration.ofSeconds(30), Duration.ofMinutes(30));
  private static final Checkpointing EVERY_30_MIN = Checkpointing.everyInterval(Duration.ofMinutes(30),
      Duration.ofSeconds(30));

  private static Instant at(String offset) {
    return START.plus(Duration.parse(offset));
  }

  @Test
  void aJobThatHonoursTheSignalKeepsTheStateAtTheSignalOnceItsCheckpointIsWritten() {
    assertThat(ON_SIGNAL.savedAt(START, at("PT40M"), at("PT40M30S"))).isEqualTo(at("PT40M"));
    // Stopped before it is written: the interval checkpoint of 30 min counts.
    assertThat(ON_SIGNAL.savedAt(START, at("PT40M"), at("PT40M20S"))).isEqualTo(at("PT30M"));
  }

  @Test
  void aJobThatIgnoresItKeepsItsLastWrittenIntervalCheckpoint() {
    assertThat(EVERY_30_MIN.savedAt(START, at("PT40M"), at("PT41M50S"))).isEqualTo(at("PT30M"));
    // The checkpoint of 60 min is not written until 60:30: the one of 30 min counts.
    assertThat(EVERY_30_MIN.savedAt(START, at("PT59M"), at("PT60M20S"))).isEqualTo(at("PT30M"));
    assertThat(EVERY_30_MIN.savedAt(START, at("PT59M"), at("PT60M30S"))).isEqualTo(at("PT60M"));
    // Before the first one: back to the run's start (the state it restored).
    assertThat(EVERY_30_MIN.savedAt(START, at("PT10M"), at("PT11M50S"))).isEqualTo(START);
  }
}
