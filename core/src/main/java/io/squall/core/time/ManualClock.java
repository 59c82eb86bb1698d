package io.squall.core.time;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Time that moves only when its owner moves it, and never goes back: the simulator's virtual
 * time, the controller's with {@code squall.ticks: manual}, and tests'. Thread-safe: the
 * controller's threads read it while a test moves it.
 */
public final class ManualClock implements InstantSource {
  private volatile Instant now;

  public ManualClock(Instant start) {
    this.now = Objects.requireNonNull(start, "start");
  }

  @Override
  public Instant instant() {
    return now;
  }

  /** Moves to {@code to}, which must not be before the current instant. */
  public synchronized void set(Instant to) {
    if (to.isBefore(now)) {
      throw new IllegalArgumentException("time goes forward only: " + to + " is before " + now);
    }
    now = to;
  }

  /** Moves forward by {@code d}; returns the new instant. */
  public synchronized Instant advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("time goes forward only, not by " + d);
    }
    now = now.plus(d);
    return now;
  }
}
