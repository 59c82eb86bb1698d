package io.squall.core.schedule;

import io.squall.core.model.Node;
import io.squall.core.model.Partition;
import io.squall.core.sbatch.JobRequest;
import java.util.List;
import java.util.function.Function;

/**
 * The check slurmctld makes when a job is submitted: a job that no partition it may use could hold,
 * even with every node of it empty, is refused at once instead of pending for ever. Limits a job
 * may wait out (a partition's MaxNodes or MaxTime, nodes that are busy or down) are the
 * scheduler's, not this check's. Node features are left to the scheduler too, so this refuses only
 * what no node's size could ever hold.
 */
public final class SubmitLimits {
  private SubmitLimits() {}

  /**
   * @param partitions the partitions the job may use (those it names, else the default)
   * @param nodes the configured node of a name, or null
   * @return null when some partition could hold the job, else Slurm's error with the reason
   */
  public static String refusal(JobRequest request, List<Partition> partitions, Function<String, Node> nodes) {
    if (!request.resources().otherGres().isEmpty()) {
      // Squall's nodes offer GPUs only, as a cluster whose gres.conf names nothing else.
      return "Invalid generic resource (gres) specification (--gres=" + String.join(",",
          request.resources().otherGres()) + ": this cluster's nodes offer only gpu)";
    }
    String refusal = "no partition to run in";
    for (Partition p : partitions) {
      List<Node> members = p.nodes().stream().map(nodes).filter(n -> n != null).toList();
      int largestGpus = members.stream().mapToInt(Node::gpus).max().orElse(0);
      GangShape shape = GangShape.of(request, p, largestGpus);
      if (shape.nodes() > members.size()) {
        refusal = "Node count specification invalid (partition " + p.name() + " has " + members.size()
            + " nodes; the job needs " + shape.nodes() + ")";
        continue;
      }
      long holders = members.stream().filter(n -> couldHold(n, shape)).count();
      if (holders >= shape.nodes()) {
        return null;
      }
      refusal = "Requested node configuration is not available (the job needs " + shape.nodes() + " node"
          + (shape.nodes() == 1 ? "" : "s") + " with " + shape.gpusPerNode() + " GPUs"
          + (shape.gpuType() == null ? "" : " of type " + shape.gpuType()) + ", " + shape.cpusPerNode() + " CPUs"
          + (shape.memoryMb() > 0 ? " and " + shape.memoryMb() + " MB" : "") + " each; partition " + p.name()
          + " has " + holders + " such node" + (holders == 1 ? "" : "s") + ")";
    }
    return refusal;
  }

  private static boolean couldHold(Node n, GangShape s) {
    return s.fitsEmpty(n) && s.typeMatches(n);
  }
}
