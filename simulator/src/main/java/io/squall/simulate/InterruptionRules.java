package io.squall.simulate;

import java.time.Duration;
import java.util.Objects;

/**
 * What the simulated controller does with jobs on an interrupted node, as the production
 * controller's partition checkpoint policy says ({@code squall.partitions.NAME.*}), and how the
 * jobs checkpoint.
 *
 * @param margin a job is stopped at the latest this long before its machine goes
 * @param maxRestarts restarts after interruptions before a job is held instead (held jobs stay
 *     pending: nobody releases them in a simulation)
 * @param restartBackoff the wait before the second restart, doubled for each one after it (the
 *     first restart does not wait)
 * @param jobs how the jobs checkpoint
 */
public record InterruptionRules(Duration margin, int maxRestarts, Duration restartBackoff, Checkpointing jobs) {
  public InterruptionRules {
    Objects.requireNonNull(jobs, "jobs");
    if (margin.isNegative() || maxRestarts < 0 || restartBackoff.isNegative()) {
      throw new IllegalArgumentException("margin, max restarts and restart backoff must not be negative");
    }
  }

  /**
   * The controller's defaults (10 s margin, 5 restarts, 30 s backoff) with jobs that checkpoint on
   * the signal in 30 s and every 30 min.
   */
  public static InterruptionRules defaults() {
    return new InterruptionRules(Duration.ofSeconds(10), 5, Duration.ofSeconds(30),
        Checkpointing.onSignal(Duration.ofSeconds(30), Duration.ofMinutes(30)));
  }

  public InterruptionRules withJobs(Checkpointing checkpointing) {
    return new InterruptionRules(margin, maxRestarts, restartBackoff, checkpointing);
  }
}
