package io.squall.core.schedule;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.priority.PriorityWeights;
import java.time.Instant;
import java.util.List;

/**
 * Runs scheduling cycles. Stateless and thread-safe: each call is a pure function of the
 * snapshot and the instant (which the caller takes from its injected clock).
 */
public final class Scheduler {
  private final SchedulerConfig config;

  public Scheduler(SchedulerConfig config) {
    this.config = config;
  }

  /** Decides one cycle. The same snapshot and instant always give an equal plan. */
  public Plan cycle(ClusterSnapshot snapshot, Instant now) {
    return new Cycle(config, snapshot, now).run();
  }

  /**
   * The earliest instant later than {@code after} at which a cycle over this same snapshot may
   * decide differently because of the clock alone: a time limit or {@code --signal} time, a
   * preemption's grace end, a begin time, a deadline, a {@code --switches} wait, an {@code
   * after:job+minutes} delay, a reservation's start or end; null when there is none. It may be
   * early, never late. What changes continuously with time (the age factor, GrpTRESRunMins, budgets'
   * remaining time) has no instant: a caller that skips cycles must still run one periodically.
   */
  public Instant nextTimeTrigger(ClusterSnapshot snapshot, Instant after) {
    return TimeTriggers.next(config, snapshot, after);
  }

  /**
   * The priority factors of every pending job that is not held, in each partition it may run in,
   * in job order: what a cycle at {@code now} would order them by (sprio).
   */
  public List<JobPriority> priorities(ClusterSnapshot snapshot, Instant now) {
    return new Cycle(config, snapshot, now).priorities();
  }

  /** The weights priorities are made with (sprio -w). */
  public PriorityWeights weights() {
    return config.weights();
  }

  /**
   * What a job would hold in a partition, for cost estimates and what sacct reports as requested.
   *
   * @param nodes the nodes it waits for (a {@code --nodes} range's minimum)
   * @param cpusPerNode and memoryMbPerNode what each of them must have; memory 0 when the request
   *     names none, -1 for {@code --mem=0} (the whole node)
   * @param limitSeconds its time limit, {@link Long#MAX_VALUE} for UNLIMITED
   */
  public record Size(int nodes, int gpus, int cpusPerNode, long memoryMbPerNode, long limitSeconds) {}

  /** The job's nodes, GPUs, CPUs, memory and time limit in the partition, as a cycle would shape it. */
  public static Size sizeIn(io.squall.core.model.Job job, io.squall.core.model.Partition partition,
      int largestNodeGpus) {
    GangShape s = GangShape.of(job.request(), partition, largestNodeGpus);
    return new Size(s.nodes(), s.totalGpus(), s.cpusPerNode(), s.memoryMb(), s.limitSeconds());
  }
}
