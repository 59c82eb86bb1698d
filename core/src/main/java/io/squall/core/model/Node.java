package io.squall.core.model;

import io.squall.core.provider.CapacityType;
import java.util.Set;

/**
 * A node with its GPUs, CPUs, memory and features.
 *
 * @param placementGroup the fast-fabric group (cluster placement group, leaf switch or block)
 * @param zone the zone its machine runs in, when it is a cloud node that has one now (null for
 *     static nodes and powered-down ones): a gang's nodes must share it
 * @param capacityType what its machine was bought as, when it is a cloud node that has one now
 *     (null otherwise): a job that may run on spot only (or on-demand only) is not placed on the
 *     other kind
 */
public record Node(String name, int gpus, String gpuType, int cpus, long memoryMb,
    Set<String> features, String placementGroup, NodeState state, String zone, CapacityType capacityType) {
  /** GPU indices are tracked in a 64-bit mask. */
  public static final int MAX_GPUS = 64;

  public Node {
    features = Set.copyOf(features);
    if (gpus < 0 || gpus > MAX_GPUS) {
      throw new IllegalArgumentException("node " + name + ": GPUs must be 0.." + MAX_GPUS);
    }
  }

  /** A node whose machine runs in no particular zone (static, or powered down). */
  public Node(String name, int gpus, String gpuType, int cpus, long memoryMb, Set<String> features,
      String placementGroup, NodeState state) {
    this(name, gpus, gpuType, cpus, memoryMb, features, placementGroup, state, null, null);
  }

  public Node withState(NodeState newState) {
    return new Node(name, gpus, gpuType, cpus, memoryMb, features, placementGroup, newState, zone, capacityType);
  }

  /** The node with its machine in {@code newZone}, bought as {@code type} (nulls: no machine). */
  public Node withMachine(String newZone, CapacityType type) {
    return new Node(name, gpus, gpuType, cpus, memoryMb, features, placementGroup, state, newZone, type);
  }
}
