package io.squall.api.scheduling;

import io.squall.api.config.ClusterLayout;
import io.squall.api.jobs.JobLifecycle;
import io.squall.api.spot.InterruptionResponder;
import io.squall.api.state.Batch;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StoredJob;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.Partition;
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
  private final ClusterLayout layout;
  private final Provider<InterruptionResponder> drains;

  public PlanApplier(JobLifecycle lifecycle, ClusterLayout layout, Provider<InterruptionResponder> drains) {
    this.lifecycle = lifecycle;
    this.layout = layout;
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
      public void stop(Job job, JobState as, String why) {
        StoredJob j = b.job(job.key());
        if (as == JobState.TIMEOUT) {
          lifecycle.stop(b, j, as, why);
          return;
        }
        b.update(j.withJob(job.preempting(b.now())));
        Duration grace = Duration.ofSeconds(layout.partitions().stream().filter(p -> p.name().equals(job.partition()))
            .mapToInt(Partition::graceTimeSeconds).findFirst().orElse(0));
        b.afterCommit(() -> drains.get().preempt(job.key(), as == JobState.REQUEUED, why, grace));
      }
    });
  }
}
