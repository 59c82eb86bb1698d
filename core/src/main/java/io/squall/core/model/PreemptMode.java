package io.squall.core.model;

/** What happens to preempted work (Slurm's PreemptMode). */
public enum PreemptMode {
  /** Not preemptable. */
  OFF,
  /** The victim is cancelled. */
  CANCEL,
  /** The victim is requeued (same id, restart count + 1). */
  REQUEUE
}
