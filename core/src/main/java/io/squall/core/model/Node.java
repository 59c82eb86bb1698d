package io.squall.core.model;

import java.util.Set;

/**
 * A node with its GPUs, CPUs, memory and features.
 *
 * @param placementGroup the fast-fabric group (cluster placement group, leaf switch or block)
 */
public record Node(String name, int gpus, String gpuType, int cpus, long memoryMb,
    Set<String> features, String placementGroup, NodeState state) {
  /** GPU indices are tracked in a 64-bit mask. */
  public static final int MAX_GPUS = 64;

  public Node {
    features = Set.copyOf(features);
    if (gpus < 0 || gpus > MAX_GPUS) {
      throw new IllegalArgumentException("node " + name + ": GPUs must be 0.." + MAX_GPUS);
    }
  }

  public Node withState(NodeState newState) {
    return new Node(name, gpus, gpuType, cpus, memoryMb, features, placementGroup, newState);
  }
}
