package io.squall.simulate;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Virtual time for a simulation: it stands still until its owner moves it, and never goes back.
 * Not thread-safe: one simulation loop owns it (providers may read it from that loop).
 */
public final class VirtualClock implements InstantSource {
  private Instant now;

  public VirtualClock(Instant start) {
    this.now = Objects.requireNonNull(start, "start");
  }

  @Override
  public Instant instant() {
    return now;
  }

  /** Moves to {@code to}, which must not be before the current instant. */
  public void set(Instant to) {
    if (to.isBefore(now)) {
      throw new IllegalArgumentException("virtual time goes forward only: " + to + " is before " + now);
    }
    now = to;
  }

  public void advance(Duration d) {
    set(now.plus(d));
  }
}
