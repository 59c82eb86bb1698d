package io.squall.spot.drain;

import java.util.Objects;

/**
 * Why a run is being drained, and so what becomes of it if its batch script exits before the
 * drain stops it (it checkpointed and left, or died of the signal): it is handled as the drain
 * would have handled it, not ended.
 *
 * @param why for the job's history
 * @param hold requeued held (a user's pause, or a pause asked for during another drain)
 * @param earlierInterruptions interruptions that stopped the job before (for max-restarts)
 */
public record DrainMark(String why, Kind kind, boolean hold, int earlierInterruptions) {
  /** What drains the run. */
  public enum Kind {
    /** A node of its was interrupted: requeued as {@link RequeueDecision} says. */
    INTERRUPTION,
    /** A user's checkpointed requeue or pause: requeued (held for a pause), not counted as an interruption. */
    USER,
    /** Preempted, requeue mode: requeued, its history saying who preempted it. */
    PREEMPTION_REQUEUE,
    /** Preempted, cancel mode: it ends PREEMPTED. */
    PREEMPTION_CANCEL
  }

  public DrainMark {
    Objects.requireNonNull(why, "why");
    Objects.requireNonNull(kind, "kind");
  }

  public DrainMark held() {
    return new DrainMark(why, kind, true, earlierInterruptions);
  }
}
