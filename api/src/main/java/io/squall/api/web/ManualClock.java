package io.squall.api.web;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that moves only when told ({@code squall.ticks: manual}, for tests). Thread-safe. */
public final class ManualClock implements InstantSource {
  private final AtomicReference<Instant> now;

  public ManualClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  /** Moves the clock forward. */
  public Instant advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("a clock does not go back: " + d);
    }
    return now.updateAndGet(t -> t.plus(d));
  }
}
