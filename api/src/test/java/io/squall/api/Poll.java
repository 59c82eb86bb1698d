package io.squall.api;

import java.time.Duration;
import java.util.function.Supplier;

/** Waits for a condition with a deadline: end-to-end tests run real processes on a slow machine. */
public final class Poll {
  private Poll() {}

  public static <T> T until(String what, Duration timeout, Supplier<T> probe) {
    long deadline = System.nanoTime() + timeout.toNanos();
    T last = null;
    while (System.nanoTime() < deadline) {
      last = probe.get();
      if (last != null && !Boolean.FALSE.equals(last)) {
        return last;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new AssertionError("timed out after " + timeout.toSeconds() + " s waiting for " + what);
  }
}
