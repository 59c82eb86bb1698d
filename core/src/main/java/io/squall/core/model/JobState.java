package io.squall.core.model;

/** Slurm's job states. */
public enum JobState {
  PENDING, CONFIGURING, RUNNING, COMPLETING, COMPLETED, FAILED, CANCELLED, TIMEOUT, PREEMPTED,
  NODE_FAIL, REQUEUED;

  /** Whether the job holds (or is about to hold) resources on nodes. */
  public boolean holdsResources() {
    return switch (this) {
      case CONFIGURING, RUNNING, COMPLETING -> true;
      case PENDING, COMPLETED, FAILED, CANCELLED, TIMEOUT, PREEMPTED, NODE_FAIL, REQUEUED -> false;
    };
  }

  public boolean isFinished() {
    return switch (this) {
      case COMPLETED, FAILED, CANCELLED, TIMEOUT, PREEMPTED, NODE_FAIL -> true;
      case PENDING, CONFIGURING, RUNNING, COMPLETING, REQUEUED -> false;
    };
  }
}
