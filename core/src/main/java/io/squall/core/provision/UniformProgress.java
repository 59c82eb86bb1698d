package io.squall.core.provision;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Deadline-aware switching between spot and on-demand: the Uniform Progress policy of "Can't Be
 * Late" (Wu et al., NSDI'24), for a job that waits for nodes.
 *
 * <p>A job with a deadline should have done at least its share of the work that the time gone by
 * since its submission is of the time it was given ({@code expected = work × elapsed / window}).
 * <ul>
 *   <li><b>Safety net.</b> When the time left, less the work left, is under twice the changeover
 *       (new nodes boot and the job restores), the job runs on-demand from now to its end: one more
 *       interruption could make it late.</li>
 *   <li><b>No restart left.</b> When one more interruption would hold the job (its partition's
 *       max-restarts is used up), it runs on-demand: a held job misses its deadline whatever its
 *       slack.</li>
 *   <li><b>Behind uniform progress</b> by more than a changeover. Spot if some can be had now,
 *       else on-demand at once. (The paper counts any lag; a launch takes a changeover anyway, so
 *       a job that has just been submitted, or just lost its nodes, is not behind yet.)</li>
 *   <li><b>Ahead of it.</b> Spot only, waiting for spot if need be: the slack pays for the wait.</li>
 * </ul>
 * A running job keeps what it runs on (the paper's exploitation rule): a spot one until it is
 * interrupted, when it is decided again; an on-demand one to its end. Progress is what the job
 * checkpointed, so an interruption takes nothing from it that the rule counted on. A deadline that
 * on-demand could meet at submission (changeover plus work fits) is met, as long as on-demand
 * capacity is there when the safety net calls for it and the job checkpoints when signalled.
 */
public final class UniformProgress {
  private UniformProgress() {}

  /**
   * The capacity the job's nodes may be bought as now, and why in words.
   *
   * @param until the first instant at which the same job could be decided otherwise (time alone
   *     takes it behind uniform progress, then into the safety net); null when only its facts can
   */
  public record Decision(SpotPolicy capacity, Duration onDemandAfter, String why, Instant until) {}

  /**
   * @param submitted when the job was submitted: its window runs from here to the deadline
   * @param work all the work the job needs (its time limit)
   * @param done the work it has checkpointed (a restart does not redo it)
   * @param changeover from losing nodes to running again on new ones: boot plus restore
   * @param restartsLeft interruptions the job may still take and be requeued (not held)
   */
  public static Decision decide(Instant now, Instant submitted, Instant deadline, Duration work, Duration done,
      Duration changeover, int restartsLeft) {
    Objects.requireNonNull(deadline, "deadline");
    Duration left = Duration.between(now, deadline);
    Duration workLeft = work.minus(done).isNegative() ? Duration.ZERO : work.minus(done);
    Duration slack = left.minus(workLeft);
    if (slack.compareTo(changeover.multipliedBy(2)) < 0) {
      return new Decision(SpotPolicy.ON_DEMAND, Duration.ZERO, "deadline: safety net, " + minutes(left)
          + " left for " + minutes(workLeft) + " of work (under twice the changeover of " + minutes(changeover)
          + " to spare): on-demand to the end", null);
    }
    if (restartsLeft <= 0) {
      return new Decision(SpotPolicy.ON_DEMAND, Duration.ZERO, "deadline: no restart left (max-restarts), one more "
          + "interruption would hold it: on-demand to the end", null);
    }
    // The slack shrinks as time goes by: the safety net from the first instant it is under twice the changeover.
    Instant safetyNet = deadline.minus(workLeft).minus(changeover.multipliedBy(2)).plusNanos(1);
    long window = Math.max(1, Duration.between(submitted, deadline).toMillis());
    long elapsed = Math.max(0, Duration.between(submitted, now).toMillis());
    Duration expected = expected(work, elapsed, window);
    if (behind(done, changeover, expected)) {
      return new Decision(SpotPolicy.SPOT_THEN_ON_DEMAND, Duration.ZERO, "deadline: behind uniform progress ("
          + minutes(done) + " done of " + minutes(expected) + " expected): spot if there is some now, else on-demand",
          safetyNet);
    }
    Instant behindAt = behindAt(submitted, work, done, changeover, elapsed, window);
    return new Decision(SpotPolicy.SPOT, null, "deadline: ahead of uniform progress (" + minutes(done) + " done of "
        + minutes(expected) + " expected, " + minutes(slack) + " slack): spot only",
        behindAt != null && behindAt.isBefore(safetyNet) ? behindAt : safetyNet);
  }

  /** The work a job should have done {@code elapsed} ms into its window of {@code window} ms. */
  private static Duration expected(Duration work, long elapsed, long window) {
    return Duration.ofMillis((long) (work.toMillis() * Math.min(1.0, (double) elapsed / window)));
  }

  private static boolean behind(Duration done, Duration changeover, Duration expected) {
    return done.plus(changeover).compareTo(expected) < 0;
  }

  /**
   * The first instant a job ahead of uniform progress at {@code elapsed} ms falls behind it; null
   * when it never does. The expected work only grows with the time elapsed, so a bisection over
   * the milliseconds left in the window finds it with the very arithmetic {@link #decide} uses.
   */
  private static Instant behindAt(Instant submitted, Duration work, Duration done, Duration changeover, long elapsed,
      long window) {
    if (!behind(done, changeover, expected(work, window, window))) {
      return null;
    }
    long ahead = elapsed;
    long behind = window;
    while (behind - ahead > 1) {
      long mid = ahead + (behind - ahead) / 2;
      if (behind(done, changeover, expected(work, mid, window))) {
        behind = mid;
      } else {
        ahead = mid;
      }
    }
    return submitted.plusMillis(behind);
  }

  private static String minutes(Duration d) {
    return d.toMinutes() + " min";
  }
}
