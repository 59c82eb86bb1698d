package io.squall.infra.gcp;

import io.squall.infra.config.Partition;
import io.squall.infra.tf.Elements;
import java.util.Map;

/**
 * A compact placement policy (COLLOCATED) per Squall placement group and zone, named as the
 * provider names them ({@link GcePolicyNames}), so its insert finds each one made. Policies are
 * regional; the zone in the name is the fleet's, which keeps a gang's launches in one zone.
 */
final class GcpPlacementPolicies {
  GcpPlacementPolicies(GcpScope s) {
    String cluster = s.config.cluster();
    for (Partition p : s.config.partitions()) {
      for (String group : p.placementGroups()) {
        for (String zone : p.zones()) {
          String name = GcePolicyNames.of(cluster, Partition.providerGroup(cluster, group, zone));
          s.resource("google_compute_resource_policy", Elements.name(name), Map.of("name", name,
              "region", s.config.gcp().region(),
              "description", "Squall placement group " + group + " (partition " + p.name() + ") in " + zone,
              "group_placement_policy", Map.of("collocation", "COLLOCATED")));
        }
      }
    }
  }
}
