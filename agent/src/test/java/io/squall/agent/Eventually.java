package io.squall.agent;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls until something holds, with a deadline: the only way tests wait for processes here. */
final class Eventually {
  /** Generous: the build machine has two slow cores and several JVMs start per test. */
  static final Duration LONG = Duration.ofSeconds(90);

  private Eventually() {}

  static void until(String what, Duration timeout, BooleanSupplier condition) {
    value(what, timeout, () -> condition.getAsBoolean() ? Optional.of(Boolean.TRUE) : Optional.empty());
  }

  static <T> T value(String what, Duration timeout, Supplier<Optional<T>> probe) {
    Instant deadline = Instant.now().plus(timeout);
    while (true) {
      Optional<T> value = probe.get();
      if (value.isPresent()) {
        return value.get();
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted waiting for " + what);
      }
    }
  }
}
