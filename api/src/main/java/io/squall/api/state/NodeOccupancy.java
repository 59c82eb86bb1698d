package io.squall.api.state;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.NodeState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What runs on each node now, derived from the running jobs: their keys and the GPUs they hold.
 * A node's IDLE, MIXED or ALLOCATED follows from it; nodes only store whether they are up.
 */
public final class NodeOccupancy {
  private final Map<String, List<String>> jobsOn = new TreeMap<>();
  private final Map<String, Integer> gpusUsed = new TreeMap<>();

  /** What runs on the nodes per the committed state. */
  public static NodeOccupancy of(ClusterState state) {
    return new NodeOccupancy(state.holdingJobs());
  }

  private NodeOccupancy(Iterable<StoredJob> jobs) {
    for (StoredJob j : jobs) {
      if (j.job().state().holdsResources()) {
        for (GpuGrant g : j.job().allocation()) {
          jobsOn.computeIfAbsent(g.node(), k -> new ArrayList<>()).add(j.key().toString());
          gpusUsed.merge(g.node(), g.gpuIndices().size(), Integer::sum);
        }
      }
    }
  }

  public List<String> jobsOn(String node) {
    return jobsOn.getOrDefault(node, List.of());
  }

  public int gpusUsed(String node) {
    return gpusUsed.getOrDefault(node, 0);
  }

  /** The state sinfo shows: a node's own state unless it is up, then IDLE, MIXED or ALLOCATED. */
  public String state(NodeStatus n) {
    if (!n.state().acceptsWork()) {
      return n.state().name();
    }
    if (!jobsOn.containsKey(n.name())) {
      return NodeState.IDLE.name();
    }
    return gpusUsed(n.name()) >= n.node().gpus() ? NodeState.ALLOCATED.name() : NodeState.MIXED.name();
  }
}
