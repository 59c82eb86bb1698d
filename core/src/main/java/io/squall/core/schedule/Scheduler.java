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
