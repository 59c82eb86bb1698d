package io.squall.core.schedule;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.PreemptMode;
import java.time.Duration;

/**
 * Carries a cycle's plan out, one engine for the controller, the simulator and the scheduler's
 * test harness. The plan was made from a snapshot a moment ago, so each action is checked
 * against the state as it is now: a job cancelled, held or started in between, or a node gone,
 * makes its action a no-op, never a double start.
 */
public final class PlanApplication {
  /** What a plan is carried out on. Called from one thread, within one change of the state. */
  public interface Ledger {
    /** The job (or array task, once it is a job of its own) as it is now; null when there is none. */
    Job job(JobKey key);

    /** Whether the node can take the job: up, or powered down or powering up (the job then configures). */
    boolean usable(String node);

    /**
     * The pending job is eligible from {@code eligible.since()} ({@link Job#eligibleSince}); kept
     * durably, as its age counts from then across restarts.
     */
    void eligible(Action.Eligible eligible);

    /**
     * Starts the job on its grants (RUNNING, or CONFIGURING while powered-down nodes come up). An
     * array task still in its array's pending remainder is taken off it first.
     */
    void start(Action.Start start);

    /** The job waits: its pending reason and expected start (a ledger may keep only changes). */
    void waiting(Action.Wait wait);

    /** A job that holds its nodes reached its time limit: it ends TIMEOUT. */
    void timeout(Job job);

    /**
     * A running job is within its {@code --signal} time of its time limit: send the signal, once
     * per run (the cycle plans it again until the job ends).
     */
    void limitSignal(Job job, Action.LimitSignal signal);

    /**
     * A job that holds its nodes is preempted: it gets its checkpoint signal and {@code grace}
     * (its partition's GraceTime) to end, then is requeued ({@code requeue}) or ends PREEMPTED.
     */
    void preempt(Job job, boolean requeue, String why, Duration grace);
  }

  private PlanApplication() {}

  /** @return how many jobs started */
  public static int apply(Plan plan, Ledger ledger) {
    int started = 0;
    for (Action a : plan.actions()) {
      if (a instanceof Action.Eligible e) {
        if (becomesEligible(ledger, e.job())) {
          ledger.eligible(e);
        }
      } else if (a instanceof Action.Start s) {
        if (startable(ledger, s)) {
          ledger.start(s);
          started++;
        }
      } else if (a instanceof Action.Wait w) {
        if (ledger.job(w.job()) != null) {
          ledger.waiting(w);
        }
      } else if (a instanceof Action.Timeout t) {
        Job j = holding(ledger, t.job());
        if (j != null) {
          ledger.timeout(j);
        }
      } else if (a instanceof Action.LimitSignal s) {
        Job j = holding(ledger, s.job());
        if (j != null) {
          ledger.limitSignal(j, s);
        }
      } else if (a instanceof Action.Preempt p) {
        Job j = holding(ledger, p.job());
        if (j != null) {
          ledger.preempt(j, p.mode() != PreemptMode.CANCEL, "preempted by job " + p.forJob(),
              Duration.ofSeconds(p.graceSeconds()));
        }
      }
      // CapacityDemand: no node of the partition, even powered up, could hold the job; it waits
      // with reason Resources (elastic capacity comes from allocating powered-down nodes).
    }
    return started;
  }

  /** The job, when it still holds its nodes; else null (it ended or was requeued meanwhile). */
  private static Job holding(Ledger ledger, JobKey key) {
    Job j = ledger.job(key);
    return j != null && j.state().holdsResources() ? j : null;
  }

  /** Whether the job still waits unheld and without an eligible time (a hold in between clears it). */
  private static boolean becomesEligible(Ledger ledger, JobKey key) {
    Job j = ledger.job(key);
    return j != null && j.state() == JobState.PENDING && !j.request().control().hold() && j.eligibleSince() == null;
  }

  /**
   * Whether the job still waits unheld on usable nodes. An array task is either a job of its own
   * (held or cancelled alone, or requeued, since it left its array) or still one of its array's
   * pending tasks.
   */
  private static boolean startable(Ledger ledger, Action.Start s) {
    JobKey key = s.job();
    Job j = ledger.job(key);
    if (j == null && key.taskId() != null) {
      Job array = ledger.job(JobKey.of(key.id()));
      j = array != null && array.pendingTasks().contains(key.taskId()) ? array : null;
    }
    if (j == null || j.state() != JobState.PENDING || j.request().control().hold()) {
      return false;
    }
    for (GpuGrant g : s.grants()) {
      if (!ledger.usable(g.node())) {
        return false;
      }
    }
    return true;
  }
}
