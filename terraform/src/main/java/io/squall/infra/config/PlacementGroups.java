package io.squall.infra.config;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The controller's division of partitions into Squall placement groups (api's ClusterLayout), so
 * that the infrastructure makes exactly the groups the fleet will launch into: a partition of
 * {@code n} nodes with {@code placement-groups: g} splits its nodes in order into
 * {@code min(g, n)} runs named {@code PARTITION-pg1} ... (just {@code PARTITION} for one group). A
 * node named by several partitions belongs to the group of the first by name (the controller lays
 * partitions out in name order, and the first template wins).
 * ControllerLayoutTest holds this against ClusterLayout itself.
 */
final class PlacementGroups {
  private PlacementGroups() {}

  /**
   * @param nodes the node names, in order
   * @param groups the partition's {@code placement-groups}
   * @param claimed the nodes earlier partitions hold; this partition's new nodes are added
   * @return the groups of the nodes this partition holds first, in node order
   */
  static List<String> of(String partition, List<String> nodes, int groups, Set<String> claimed) {
    int count = Math.max(1, Math.min(groups, nodes.size()));
    Set<String> out = new LinkedHashSet<>();
    for (int i = 0; i < nodes.size(); i++) {
      if (!claimed.add(nodes.get(i))) {
        continue;
      }
      out.add(count == 1 ? partition : partition + "-pg" + (i * count / nodes.size() + 1));
    }
    return new ArrayList<>(out);
  }
}
