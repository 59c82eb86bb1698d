package io.squall.spot.drain;

import io.squall.core.model.Job;
import io.squall.core.spot.RestartBackoff;
import java.time.Instant;

/**
 * What becomes of a job an interruption stopped, as Slurm would have it and finance wants it:
 * with {@code --no-requeue} it ends PREEMPTED; else it goes back to the queue whole (same id, one
 * more restart, its age kept), from its second interruption on not before the backoff (doubled
 * per interruption, so a bad zone is not hammered), held once interrupted more often than
 * max-restarts, and held when its user paused it meanwhile. The controller and the simulator
 * both decide with it.
 *
 * @param notBefore the earliest restart; null for at once (or when it ends or is held)
 * @param interruption how many interruptions have stopped the job, this one included
 */
public record RequeueDecision(Outcome outcome, Instant notBefore, int interruption) {
  /** The three ways out. */
  public enum Outcome {
    /** {@code --no-requeue}: the job ends PREEMPTED. */
    END,
    /** Back to the queue, maybe not before {@link #notBefore()}. */
    REQUEUE,
    /** Back to the queue and held: past max-restarts, or paused by its user meanwhile. */
    HOLD
  }

  /**
   * @param noRequeue the job asked not to be requeued ({@code --no-requeue})
   * @param earlierInterruptions interruptions that stopped it before this one
   * @param pausedMeanwhile its user asked for a pause while the interruption drained it
   */
  public static RequeueDecision afterInterruption(boolean noRequeue, int earlierInterruptions, boolean pausedMeanwhile,
      DrainRules rules, Instant now) {
    int interruption = earlierInterruptions + 1;
    if (noRequeue) {
      return new RequeueDecision(Outcome.END, null, interruption);
    }
    if (interruption > rules.maxRestarts() || pausedMeanwhile) {
      return new RequeueDecision(Outcome.HOLD, null, interruption);
    }
    return new RequeueDecision(Outcome.REQUEUE, RestartBackoff.notBefore(now, rules.restartBackoff(), interruption),
        interruption);
  }

  /**
   * The job back in the queue as decided: {@code job} stopped and {@link Job#requeued()}, held
   * ({@link Outcome#HOLD}) or not to start before the backoff; unchanged for {@link Outcome#END}.
   */
  public Job applyTo(Job requeued) {
    return switch (outcome) {
      case END -> requeued;
      case HOLD -> requeued.withRequest(requeued.request().withHold(true));
      case REQUEUE -> notBefore == null ? requeued : requeued.notBefore(notBefore);
    };
  }

  /** Held because of max-restarts (rather than a pause). */
  public boolean pastMaxRestarts(DrainRules rules) {
    return outcome == Outcome.HOLD && interruption > rules.maxRestarts();
  }
}
