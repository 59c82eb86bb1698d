package io.squall.api.scheduling;

import io.squall.api.jobs.JobLifecycle;
import io.squall.api.spot.InterruptionResponder;
import io.squall.api.state.Batch;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StoredJob;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.schedule.Action;
import io.squall.core.schedule.Plan;
import io.squall.core.schedule.PlanApplication;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Objects;

/**
 * Applies a cycle's plan on the writer thread, in one batch: {@link PlanApplication} (the same
 * code the simulator runs) against the batch's state. A preempted job is marked as being
 * preempted (the scheduler counts its nodes free at the end of its grace time and picks no other
 * victim for them), then handed to the drain: checkpoint signal, grace time, requeue or end.
 */
@Singleton
public final class PlanApplier {
  private final JobLifecycle lifecycle;
  private final Provider<InterruptionResponder> drains;

  public PlanApplier(JobLifecycle lifecycle, Provider<InterruptionResponder> drains) {
    this.lifecycle = lifecycle;
    this.drains = drains;
  }

  /** @return how many jobs started */
  public int apply(Batch b, Plan plan) {
    return PlanApplication.apply(plan, new PlanApplication.Ledger() {
      @Override
      public Job job(JobKey key) {
        StoredJob j = b.job(key);
        return j == null ? null : j.job();
      }

      @Override
      public boolean usable(String node) {
        NodeStatus n = b.node(node);
        // Up, or powered down / powering up: the job then configures while they come up.
        return n != null && (n.isUp() || n.state().resumable());
      }

      @Override
      public void eligible(Action.Eligible e) {
        StoredJob j = b.job(e.job());
        b.update(j.withJob(j.job().eligibleSince(e.since())));
      }

      @Override
      public void start(Action.Start s) {
        lifecycle.start(b, s.job(), s.partition(), s.grants());
      }

      @Override
      public void waiting(Action.Wait w) {
        StoredJob j = b.job(w.job());
        String reason = w.reason().slurmName();
        // Most waits repeat the last cycle's: only changes are worth touching the job for.
        if (!reason.equals(j.reason()) || !Objects.equals(w.expectedStart(), j.expectedStart())) {
          b.note(w.job(), reason, w.expectedStart());
        }
      }

      @Override
      public void timeout(Job job) {
        lifecycle.stop(b, b.job(job.key()), JobState.TIMEOUT, "time limit reached");
      }

      @Override
      public void limitSignal(Job job, Action.LimitSignal s) {
        StoredJob j = b.job(job.key());
        if (!j.limitSignalled()) {
          lifecycle.checkpointSignal(b, j, s.signal(), s.batchOnly(), "--signal: " + s.seconds()
              + " s before its time limit");
          b.update(b.job(job.key()).limitSignalSent());
        }
      }

      @Override
      public void preempt(Job job, boolean requeue, String why, Duration grace) {
        b.update(b.job(job.key()).withJob(job.preempting(b.now())));
        b.afterCommit(() -> drains.get().preempt(job.key(), requeue, why, grace));
      }
    });
  }
}
