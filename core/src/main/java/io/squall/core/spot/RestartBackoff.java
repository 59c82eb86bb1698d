package io.squall.core.spot;

import java.time.Duration;
import java.time.Instant;

/**
 * When a job requeued after a spot interruption may start again: at once after its first
 * interruption, then after {@code base}, doubled with each further one, so a bad zone is not
 * hammered. The controller and the simulator both use it.
 */
public final class RestartBackoff {
  /** 2^20 times the base is beyond any run: the doubling stops there rather than overflow. */
  private static final int MAX_DOUBLINGS = 20;

  private RestartBackoff() {}

  /**
   * @param interruption how many times the job has been interrupted, this one included (1 or more)
   * @return the earliest restart, or null to restart at once
   */
  public static Instant notBefore(Instant now, Duration base, int interruption) {
    if (interruption <= 1) {
      return null;
    }
    return now.plus(base.multipliedBy(1L << Math.min(MAX_DOUBLINGS, interruption - 2)));
  }
}
