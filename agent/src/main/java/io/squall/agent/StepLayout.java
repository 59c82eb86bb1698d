package io.squall.agent;

import io.squall.agent.Protocol.TaskSlot;
import io.squall.core.hostlist.Hostlist;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a step's tasks run: which of the job's nodes, and which ranks on each, by Slurm's block
 * distribution (consecutive ranks share a node; counts differ by at most one, larger first).
 */
record StepLayout(int ntasks, List<NodeTasks> nodes) {
  /** One node's share: its index in the step and its tasks' global and local ranks. */
  record NodeTasks(String node, int nodeid, List<TaskSlot> tasks) {}

  /**
   * Decides the step's shape. Task count: {@code -n}; else nodes × {@code --ntasks-per-node};
   * else one per node when {@code -N} is given; else the job's SLURM_NTASKS; else one per
   * allocated node. Node count: {@code -N}; else as many of the job's nodes as the tasks need.
   *
   * @throws StepException when the step does not fit the job, worded like srun's errors
   */
  static StepLayout plan(SrunOptions options, List<String> allocated, Map<String, String> env, String job)
      throws StepException {
    int available = allocated.size();
    Integer nodes = options.nodes();
    Integer perNode = options.ntasksPerNode();
    if (nodes != null && nodes > available) {
      throw new StepException("Unable to create step for job " + job + ": " + nodes + " nodes requested but the job"
          + " has only " + available + " (" + Hostlist.compress(allocated) + ")");
    }
    int ntasks;
    if (options.ntasks() != null) {
      ntasks = options.ntasks();
    } else if (perNode != null) {
      ntasks = (nodes != null ? nodes : available) * perNode;
    } else if (nodes != null) {
      ntasks = nodes;
    } else {
      ntasks = jobTasks(env, available);
    }
    int count;
    if (nodes != null) {
      count = nodes;
    } else if (perNode != null) {
      count = Math.min(available, (ntasks + perNode - 1) / perNode);
    } else {
      count = Math.min(available, ntasks);
    }
    if (ntasks < count) {
      throw new StepException("Unable to create step for job " + job + ": " + ntasks + " tasks cannot cover "
          + count + " nodes; every node of a step runs at least one task");
    }
    if (perNode != null && ntasks > count * perNode) {
      throw new StepException("Unable to create step for job " + job + ": " + ntasks + " tasks do not fit " + count
          + " nodes with --ntasks-per-node=" + perNode);
    }
    List<NodeTasks> layout = new ArrayList<>();
    int procid = 0;
    for (int n = 0; n < count; n++) {
      int here = ntasks / count + (n < ntasks % count ? 1 : 0);
      List<TaskSlot> slots = new ArrayList<>();
      for (int local = 0; local < here; local++) {
        slots.add(new TaskSlot(procid++, local));
      }
      layout.add(new NodeTasks(allocated.get(n), n, slots));
    }
    return new StepLayout(ntasks, List.copyOf(layout));
  }

  /** The step's nodes in compressed hostlist form, for SLURM_STEP_NODELIST. */
  String nodelist() {
    List<String> names = new ArrayList<>();
    nodes.forEach(n -> names.add(n.node()));
    return Hostlist.compress(names);
  }

  private static int jobTasks(Map<String, String> env, int fallback) throws StepException {
    String text = env.get("SLURM_NTASKS");
    if (text == null || text.isBlank()) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(text.trim());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new StepException("SLURM_NTASKS '" + text + "' is not a task count");
  }
}
