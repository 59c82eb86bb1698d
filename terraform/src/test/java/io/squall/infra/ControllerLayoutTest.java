package io.squall.infra;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.config.ClusterLayout;
import io.squall.api.config.PartitionConfig;
import io.squall.api.config.SquallConfig;
import io.squall.core.model.Node;
import io.squall.infra.config.Cloud;
import io.squall.infra.config.ClusterConfig;
import io.squall.infra.config.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The placement groups infra makes per partition are the ones the controller's own layout
 * (api's ClusterLayout, given the same partitions) puts the partition's nodes in.
 */
class ControllerLayoutTest {
  /** Partition to its nodes' placement groups, in node order, as the controller lays them out. */
  private static Map<String, List<String>> controllerGroups(ClusterConfig config) {
    List<PartitionConfig> partitions = new ArrayList<>();
    for (Partition p : config.partitions()) {
      PartitionConfig c = new PartitionConfig(p.name());
      c.setNodes(String.join(",", p.nodes()));
      c.setPlacementGroups(Integer.parseInt(config.file().find("squall.partitions." + p.name() + ".placement-groups")
          .map(String::valueOf).orElse("1")));
      partitions.add(c);
    }
    ClusterLayout layout = new ClusterLayout(partitions, List.of(), List.of(), new SquallConfig());
    Map<String, Set<String>> groups = new TreeMap<>();
    for (Partition p : config.partitions()) {
      for (String name : p.nodes()) {
        Node node = layout.node(name);
        // The node's group is the partition's that laid it out first (its group carries that name).
        if (node.placementGroup().equals(p.name()) || node.placementGroup().startsWith(p.name() + "-pg")) {
          groups.computeIfAbsent(p.name(), k -> new LinkedHashSet<>()).add(node.placementGroup());
        }
      }
    }
    Map<String, List<String>> out = new TreeMap<>();
    groups.forEach((k, v) -> out.put(k, List.copyOf(v)));
    return out;
  }

  private static Map<String, List<String>> infraGroups(ClusterConfig config) {
    Map<String, List<String>> out = new TreeMap<>();
    config.partitions().stream().filter(p -> !p.placementGroups().isEmpty())
        .forEach(p -> out.put(p.name(), p.placementGroups()));
    return out;
  }

  @Test
  void theExamplesGroupsAreTheControllers() {
    for (Cloud cloud : Cloud.values()) {
      ClusterConfig config = Synthesized.example(cloud.key() + ".yml", cloud).config();
      assertThat(infraGroups(config)).as(cloud.key()).isEqualTo(controllerGroups(config)).isNotEmpty();
    }
  }

  @Test
  void overlappingPartitionsGroupAsTheControllerDoes(@TempDir Path dir) throws Exception {
    // "zeta" comes first in the file, "alpha" first by name: the controller gives shared nodes to alpha.
    Path file = Files.writeString(dir.resolve("overlap.yml"), """
        squall:
          provider: aws
          aws: {image-id: ami-1}
          partitions:
            zeta: {nodes: "n-[1-10]", placement-groups: 3, instance-types: [p5.48xlarge], zones: [us-east-1a, us-east-1b]}
            alpha: {nodes: "n-[7-12]", placement-groups: 2, instance-types: [p5.48xlarge]}
            solo: {nodes: "s-[1-3]", placement-groups: 7, instance-types: [p5.48xlarge]}
        """);
    ClusterConfig config = Synthesized.of(file, Cloud.AWS).config();
    assertThat(infraGroups(config)).isEqualTo(controllerGroups(config));
    assertThat(infraGroups(config).get("alpha")).containsExactly("alpha-pg1", "alpha-pg2");
  }
}
