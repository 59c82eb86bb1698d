package io.squall.spot.metadata;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock that moves only when told. */
final class ManualClock implements InstantSource {
  private Instant now;

  ManualClock(Instant start) {
    this.now = start;
  }

  @Override
  public Instant instant() {
    return now;
  }

  void advance(Duration by) {
    now = now.plus(by);
  }
}
