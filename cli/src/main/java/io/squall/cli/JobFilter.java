package io.squall.cli;

import io.squall.cli.service.JobInfo;
import io.squall.core.sbatch.ArraySpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The squeue and scancel filters the service does not take, applied to the jobs it lists: {@code -w} (jobs
 * with a node in the hostlist: running ones, as squeue's), {@code -q} (QOS, in any case, as Slurm
 * names them) and {@code -R} (advanced reservation). Also {@code -r}'s expansion of an array's
 * pending remainder into its tasks.
 */
record JobFilter(NodeNames nodes, QosNames qos, String reservation) {
  static JobFilter of(Getopt.Parsed args) {
    NodeNames nodes = NodeNames.of(args, "nodelist", value -> "Invalid node name " + value);
    return new JobFilter(nodes, QosNames.of(args, "qos"), args.last("reservation"));
  }

  boolean any() {
    return nodes != null || qos != null || reservation != null;
  }

  /** The summary fields {@link #keeps} reads. */
  List<String> fieldsRead() {
    List<String> fields = new ArrayList<>();
    if (nodes != null) {
      fields.add("nodes");
    }
    if (qos != null) {
      fields.add("qos");
    }
    if (reservation != null) {
      fields.add("reservation");
    }
    return fields;
  }

  boolean keeps(JobInfo j) {
    return (qos == null || qos.contains(j.qos()))
        && (reservation == null || reservation.equals(j.reservation()))
        && (nodes == null || nodes.meets(j.nodes()));
  }

  /**
   * {@code squeue -r}: the array's pending remainder ({@code 42_[4-9%2]}) as one line per task, in
   * task order; any other job as it is.
   */
  static List<JobInfo> tasks(JobInfo j) {
    if (j.arrayPending() == null || j.arrayPending().isEmpty() || j.arrayJobId() == null) {
      return List.of(j);
    }
    String spec = j.arrayPending();
    if (spec.startsWith("[") && spec.endsWith("]")) {
      spec = spec.substring(1, spec.length() - 1);
    }
    List<Integer> taskIds;
    try {
      taskIds = ArraySpec.parse(spec).taskIds();
    } catch (IllegalArgumentException e) {
      return List.of(j); // not a task list this client can read: the remainder as the service put it
    }
    List<JobInfo> tasks = new ArrayList<>(taskIds.size());
    taskIds.forEach(t -> tasks.add(j.pendingTask(t)));
    return tasks;
  }
}
