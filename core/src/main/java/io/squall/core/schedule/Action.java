package io.squall.core.schedule;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.JobKey;
import io.squall.core.model.PreemptMode;
import java.time.Instant;
import java.util.List;

/** One decision of a cycle. The apply step re-checks each against current state before acting. */
public sealed interface Action {
  JobKey job();

  /**
   * Start a job (or an array task, which the apply step turns into its own job) on all these
   * nodes at once.
   *
   * @param endLimit when its time limit runs out; null for UNLIMITED
   */
  record Start(JobKey job, String partition, List<GpuGrant> grants, Instant endLimit) implements Action {
    public Start {
      grants = List.copyOf(grants);
    }
  }

  /**
   * Nothing holds the pending job back any more but resources and priority: it is eligible, and
   * its age counts from {@code since} (the cycle's instant), where Slurm sets its accrue time.
   */
  record Eligible(JobKey job, Instant since) implements Action {}

  /**
   * The job waits.
   *
   * @param expectedStart its backfill reservation, when it has one; else null
   */
  record Wait(JobKey job, PendingReason reason, Instant expectedStart) implements Action {}

  /**
   * Preempt a running job to make room for {@code forJob}: send {@code signal}, then after
   * {@code graceSeconds} stop it and requeue or cancel it as {@code mode} says.
   */
  record Preempt(JobKey job, JobKey forJob, PreemptMode mode, String signal, int graceSeconds) implements Action {}

  /** A running job reached its time limit: signal, then kill, and end it TIMEOUT. */
  record Timeout(JobKey job) implements Action {}

  /**
   * A running job is within its {@code --signal=[B:]SIG@seconds} of its time limit: send it
   * {@code signal} (to the batch shell only when {@code batchOnly}). Planned at every cycle from
   * then on; the ledger sends it once per run.
   */
  record LimitSignal(JobKey job, String signal, boolean batchOnly, int seconds) implements Action {}

  /**
   * The job fits on no existing node of its partition: capacity to launch, as one gang in one
   * placement group.
   *
   * @param memoryMbPerNode -1 for a whole node's memory
   * @param features the node features the gang needs (one alternative of its constraint), may be empty
   */
  record CapacityDemand(JobKey job, String partition, int nodes, int gpusPerNode, String gpuType,
      int cpusPerNode, long memoryMbPerNode, List<String> features) implements Action {
    public CapacityDemand {
      features = List.copyOf(features);
    }
  }
}
