package io.squall.core.schedule;

import io.squall.core.model.Node;
import io.squall.core.model.Partition;
import io.squall.core.sbatch.Exclusive;
import io.squall.core.sbatch.JobRequest;
import io.squall.core.sbatch.TimeLimit;
import java.util.ArrayList;
import java.util.List;

/**
 * What a job needs on each of its nodes in one partition, derived from its request as Slurm
 * derives it: GPUs from {@code --gres}/{@code --gpus-per-node}, else {@code --gpus-per-task}
 * times tasks per node, else {@code --gpus} spread evenly; CPUs from {@code --cpus-per-gpu}, else
 * tasks per node times {@code --cpus-per-task}; memory from {@code --mem}, {@code --mem-per-cpu}
 * or {@code --mem-per-gpu}. A {@code --nodes=min-max} range is scheduled at its minimum (what it
 * waits and reserves for), raised to the number of nodes {@code --nodelist} names; it starts on
 * as many nodes as are free then, up to its maximum ({@link #range}). Without {@code --nodes}, tasks spread over as
 * many nodes as their GPUs need, as Slurm lays tasks out: {@code -n 16 --gpus-per-task=1} takes
 * two 8-GPU nodes.
 *
 * @param gpusPerNode what each node must have room for; with {@code --gpus} over several nodes the
 *     last nodes get fewer, so that the gang holds exactly {@code gpusTotal}
 * @param memoryMb per node; {@link #WHOLE_NODE} for {@code --mem=0}
 * @param timeLimitMinutes resolved against the partition's DefaultTime and MaxTime; may be UNLIMITED
 * @param gpusTotal the GPUs of the whole gang, as asked ({@code --gpus=8 -N 3} holds 3, 3 and 2)
 */
record GangShape(int nodes, int gpusPerNode, String gpuType, int cpusPerNode, long memoryMb,
    boolean exclusive, int timeLimitMinutes, int gpusTotal) {
  static final long WHOLE_NODE = -1;

  /** The same GPUs on every node. */
  GangShape(int nodes, int gpusPerNode, String gpuType, int cpusPerNode, long memoryMb, boolean exclusive,
      int timeLimitMinutes) {
    this(nodes, gpusPerNode, gpuType, cpusPerNode, memoryMb, exclusive, timeLimitMinutes, nodes * gpusPerNode);
  }

  /** @param largestNodeGpus the most GPUs any node of the partition has, to spread {@code --gpus} */
  static GangShape of(JobRequest request, Partition partition, int largestNodeGpus) {
    return of(request, partition, largestNodeGpus, null);
  }

  /** @param nodeCount the nodes of a {@code --nodes=min-max} range to shape it on; null for its minimum */
  static GangShape of(JobRequest request, Partition partition, int largestNodeGpus, Integer nodeCount) {
    JobRequest.Resources r = request.resources();
    int gpusTotal = r.gpus() == null ? 0 : r.gpus();
    int nodes;
    if (nodeCount != null) {
      nodes = nodeCount;
    } else if (r.nodesMin() != null) {
      nodes = r.nodesMin();
    } else if (r.ntasks() != null && r.ntasksPerNode() != null) {
      nodes = ceil(r.ntasks(), r.ntasksPerNode());
    } else if (r.ntasks() != null && r.gpusPerTask() != null && r.gpusPerNode() == null) {
      // Each task's GPUs on one node, the tasks over as many nodes as hold them all.
      int tasksPerNode = Math.max(1, Math.max(1, largestNodeGpus) / Math.max(1, r.gpusPerTask()));
      nodes = ceil(r.ntasks(), tasksPerNode);
    } else if (gpusTotal > 0 && r.gpusPerNode() == null) {
      nodes = ceil(gpusTotal, Math.max(1, largestNodeGpus));
    } else {
      nodes = 1;
    }
    // Every node of --nodelist is part of the job, however few --nodes asked for.
    nodes = Math.max(nodes, (int) request.placement().nodelist().stream().distinct().count());
    int tasksPerNode;
    if (r.ntasksPerNode() != null) {
      tasksPerNode = r.ntasksPerNode();
    } else if (r.ntasks() != null) {
      tasksPerNode = ceil(r.ntasks(), nodes);
    } else {
      tasksPerNode = 1;
    }
    int gpus;
    if (r.gpusPerNode() != null) {
      gpus = r.gpusPerNode();
    } else if (r.gpusPerTask() != null) {
      gpus = r.gpusPerTask() * tasksPerNode;
    } else if (gpusTotal > 0) {
      gpus = ceil(gpusTotal, nodes);
    } else {
      gpus = 0;
    }
    if (r.ntasksPerGpu() != null && r.ntasks() == null && r.ntasksPerNode() == null) {
      tasksPerNode = r.ntasksPerGpu() * gpus;
    }
    int cpus = r.cpusPerGpu() != null && gpus > 0
        ? r.cpusPerGpu() * gpus
        : tasksPerNode * (r.cpusPerTask() == null ? 1 : r.cpusPerTask());
    long memory = 0;
    if (r.memPerNodeMb() != null) {
      memory = r.memPerNodeMb() == 0 ? WHOLE_NODE : r.memPerNodeMb();
    } else if (r.memPerCpuMb() != null) {
      memory = r.memPerCpuMb() * cpus;
    } else if (r.memPerGpuMb() != null) {
      memory = r.memPerGpuMb() * gpus;
    }
    int time = partition.timeLimitMinutes(request.timing().timeLimitMinutes());
    // --gpus is the gang's total (Slurm's gres per job): exactly that many, not rounded up per node.
    int total = r.gpusPerNode() == null && r.gpusPerTask() == null && gpusTotal > 0 ? gpusTotal : nodes * gpus;
    return new GangShape(nodes, gpus, r.gpuType(), cpus, memory, r.exclusive() != Exclusive.NO, time, total);
  }

  /**
   * The larger node counts a {@code --nodes=min-max} job may start on, largest first; none for a
   * fixed count or one {@code --nodelist} sets.
   */
  static List<Integer> range(JobRequest request, GangShape atMinimum) {
    Integer max = request.resources().nodesMax();
    List<Integer> out = new ArrayList<>();
    if (max != null && request.placement().nodelist().isEmpty()) {
      for (int n = max; n > atMinimum.nodes(); n--) {
        out.add(n);
      }
    }
    return out;
  }

  /** The GPUs the gang's {@code k}-th node (from 0) holds: its share, fewer on the last ones for {@code --gpus}. */
  int gpusOnNode(int k) {
    return Math.max(0, Math.min(gpusPerNode, gpusTotal - k * gpusPerNode));
  }

  /** Whether one node's share fits {@code n} when it is empty (the GPU type is checked apart). */
  boolean fitsEmpty(Node n) {
    return n.gpus() >= gpusPerNode && n.cpus() >= cpusPerNode && (memoryMb == WHOLE_NODE || n.memoryMb() >= memoryMb);
  }

  /** Whether {@code n} has the GPU type the job asked for, if it asked for one. */
  boolean typeMatches(Node n) {
    return gpuType == null || gpuType.equalsIgnoreCase(n.gpuType());
  }

  private static int ceil(int a, int b) {
    return (a + b - 1) / b;
  }

  /** Seconds of the time limit, or {@link Long#MAX_VALUE} for UNLIMITED. */
  long limitSeconds() {
    return timeLimitMinutes == TimeLimit.UNLIMITED ? Long.MAX_VALUE : timeLimitMinutes * 60L;
  }

  int totalGpus() {
    return gpusTotal;
  }

  /** GPU-minutes the gang may use over its whole limit; infinite for UNLIMITED. */
  double gpuMinutes() {
    return gpuMinutes(totalGpus());
  }

  /** GPU-minutes {@code gpus} GPUs may use over the whole limit (an exclusive job holds more than it asks). */
  double gpuMinutes(int gpus) {
    return timeLimitMinutes == TimeLimit.UNLIMITED ? Double.POSITIVE_INFINITY : gpus * limitSeconds() / 60.0;
  }
}
