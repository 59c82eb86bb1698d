package io.squall.infra.config;

import java.util.List;

/**
 * A partition as the infrastructure sees it.
 *
 * @param name the partition's name ({@code squall.partitions.NAME})
 * @param nodes its node names, {@code nodes} expanded as the controller expands it
 * @param placementGroups the Squall placement groups of its nodes, in node order (see {@link PlacementGroups})
 * @param instanceTypes its {@code instance-types}, in order
 * @param zones its {@code zones}, or every zone the provider is configured for
 * @param capacity its {@code spot} rule
 */
public record Partition(String name, List<String> nodes, List<String> placementGroups, List<String> instanceTypes,
    List<String> zones, CapacityUse capacity) {
  public Partition {
    nodes = List.copyOf(nodes);
    placementGroups = List.copyOf(placementGroups);
    instanceTypes = List.copyOf(instanceTypes);
    zones = List.copyOf(zones);
  }

  /**
   * The provider placement group a launch into {@code group} in {@code zone} uses: the fleet names
   * it {@code CLUSTER-GROUP-ZONE} (core's PowerPlanner), because a cluster placement group (EC2)
   * or compact policy (GCE) never spans zones.
   */
  public static String providerGroup(String cluster, String group, String zone) {
    return cluster + "-" + group + "-" + zone;
  }
}
