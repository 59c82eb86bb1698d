package io.squall.api.scheduling;

import io.squall.api.jobs.JobLifecycle;
import io.squall.api.state.Batch;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StoredJob;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.PreemptMode;
import io.squall.core.schedule.Action;
import io.squall.core.schedule.Plan;
import jakarta.inject.Singleton;

/**
 * Applies a cycle's plan on the writer thread. The plan was made from a snapshot a moment ago,
 * so each action is checked against the current state first: a job cancelled or a node gone in
 * between makes its action a no-op, never a double start.
 */
@Singleton
public final class PlanApplier {
  private final JobLifecycle lifecycle;

  public PlanApplier(JobLifecycle lifecycle) {
    this.lifecycle = lifecycle;
  }

  /** @return how many jobs started */
  public int apply(Batch b, Plan plan) {
    int started = 0;
    for (Action a : plan.actions()) {
      if (a instanceof Action.Start s) {
        if (startable(b, s)) {
          lifecycle.start(b, s.job(), s.partition(), s.grants());
          started++;
        }
      } else if (a instanceof Action.Wait w) {
        StoredJob j = b.job(w.job());
        String reason = w.reason().slurmName();
        // Most waits repeat the last cycle's: only changes are worth touching the job for.
        if (j != null && (!reason.equals(j.reason()) || !java.util.Objects.equals(w.expectedStart(), j.expectedStart()))) {
          b.note(w.job(), reason, w.expectedStart());
        }
      } else if (a instanceof Action.Timeout t) {
        StoredJob j = b.job(t.job());
        if (j != null && j.job().state().holdsResources()) {
          lifecycle.stop(b, j, JobState.TIMEOUT, "time limit reached");
        }
      } else if (a instanceof Action.Preempt p) {
        StoredJob j = b.job(p.job());
        if (j != null && j.job().state().holdsResources()) {
          lifecycle.stop(b, j, p.mode() == PreemptMode.CANCEL ? JobState.PREEMPTED : JobState.REQUEUED,
              "preempted by job " + p.forJob());
        }
      }
      // CapacityDemand: no node of the partition, even powered up, could hold the job; it waits
      // with reason Resources (elastic capacity comes from allocating powered-down nodes).
    }
    return started;
  }

  private static boolean startable(Batch b, Action.Start s) {
    JobKey key = s.job();
    StoredJob j = b.job(key.taskId() == null ? key : JobKey.of(key.id()));
    if (j == null || j.job().state() != JobState.PENDING || j.held()) {
      return false;
    }
    if (key.taskId() != null && !j.job().pendingTasks().contains(key.taskId())) {
      return false;
    }
    for (GpuGrant g : s.grants()) {
      NodeStatus n = b.node(g.node());
      // Up, or powered down / powering up: the job then configures while they come up.
      if (n == null || !(n.isUp() || n.state().resumable())) {
        return false;
      }
    }
    return true;
  }
}
