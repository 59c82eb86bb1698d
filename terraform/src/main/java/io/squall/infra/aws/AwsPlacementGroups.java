package io.squall.infra.aws;

import io.squall.infra.config.Partition;
import io.squall.infra.tf.Elements;
import java.util.Map;

/**
 * One EC2 cluster placement group per Squall placement group and zone, named as the fleet names
 * them ({@link Partition#providerGroup}): the provider's CreatePlacementGroup then finds each one
 * made ({@code InvalidPlacementGroup.Duplicate}) and launches into it.
 */
final class AwsPlacementGroups {
  AwsPlacementGroups(AwsScope s) {
    for (Partition p : s.config.partitions()) {
      for (String group : p.placementGroups()) {
        for (String zone : p.zones()) {
          String name = Partition.providerGroup(s.config.cluster(), group, zone);
          s.resource("aws_placement_group", Elements.name(name), Map.of("name", name, "strategy", "cluster",
              "tags", Map.of("squall:partition", p.name(), "squall:placement-group", group)));
        }
      }
    }
  }
}
