package io.squall.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.squall.infra.config.Cloud;
import io.squall.infra.config.ClusterConfig;
import io.squall.infra.config.Partition;
import io.squall.infra.gcp.GcePolicyNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The synthesized infrastructure has, for every partition of the controller's configuration (the
 * same file), a template for each of its instance types and a provider placement group for each
 * of its placement groups in each of its zones, under the names the provider looks for.
 */
class ControllerAgreementTest {
  /** What the controller's partitions would launch into that the JSON lacks, in words. */
  static List<String> gaps(ClusterConfig config, JsonNode json) {
    List<String> gaps = new ArrayList<>();
    JsonNode resources = json.path("resource");
    for (Partition p : config.partitions()) {
      for (String type : p.instanceTypes()) {
        if (config.cloud() == Cloud.AWS) {
          if (!any(resources.path("aws_launch_template"), "instance_type", type, null, null)) {
            gaps.add("partition " + p.name() + ": no launch template for " + type);
          }
        } else {
          for (String model : p.capacity().spot() ? List.of("SPOT") : List.<String>of()) {
            if (!any(resources.path("google_compute_instance_template"), "machine_type", type, "scheduling", model)) {
              gaps.add("partition " + p.name() + ": no " + model + " instance template for " + type);
            }
          }
          if (p.capacity().onDemand() && !any(resources.path("google_compute_instance_template"), "machine_type", type,
              "scheduling", "STANDARD")) {
            gaps.add("partition " + p.name() + ": no STANDARD instance template for " + type);
          }
        }
      }
      for (String group : p.placementGroups()) {
        for (String zone : p.zones()) {
          String name = Partition.providerGroup(config.cluster(), group, zone);
          boolean made = config.cloud() == Cloud.AWS
              ? any(resources.path("aws_placement_group"), "name", name, "tags", p.name() + "/" + group)
              : any(resources.path("google_compute_resource_policy"), "name", GcePolicyNames.of(config.cluster(), name),
                  null, null);
          if (!made) {
            gaps.add("partition " + p.name() + ": no placement group " + name + " for " + group + " in " + zone);
          }
        }
      }
    }
    return gaps;
  }

  private static boolean any(JsonNode elements, String field, String value, String detail, String expected) {
    for (JsonNode e : elements) {
      if (!e.path(field).asText().equals(value)) {
        continue;
      }
      if (detail == null) {
        return true;
      }
      String actual = detail.equals("tags")
          ? e.path("tags").path("squall:partition").asText() + "/" + e.path("tags").path("squall:placement-group").asText()
          : e.path(detail).path("provisioning_model").asText();
      if (actual.equals(expected)) {
        return true;
      }
    }
    return false;
  }

  @Test
  void theExamplesInfrastructureCoversEveryPartitionAsTheControllerReadsIt() {
    for (Cloud cloud : Cloud.values()) {
      Synthesized s = Synthesized.example(cloud.key() + ".yml", cloud);
      assertThat(gaps(s.config(), s.json())).as(cloud.key()).isEmpty();
    }
  }

  @Test
  void theExamplesPartitionsSplitIntoTheControllersPlacementGroups() {
    // ClusterLayout: n nodes in g groups are runs named PARTITION-pgK; one group is the partition's name.
    ClusterConfig aws = Synthesized.example("aws.yml", Cloud.AWS).config();
    assertThat(aws.partitions()).extracting(Partition::name).containsExactly("h100", "h200");
    assertThat(aws.partitions().get(0).placementGroups()).containsExactly("h100-pg1", "h100-pg2", "h100-pg3", "h100-pg4");
    assertThat(aws.partitions().get(1).placementGroups()).containsExactly("h200");
    assertThat(aws.instanceTypes()).containsExactly("p5.48xlarge", "p5en.48xlarge");
    ClusterConfig gcp = Synthesized.example("gcp.yml", Cloud.GCP).config();
    assertThat(gcp.partitions().get(0).placementGroups()).containsExactly("h100-pg1", "h100-pg2");
    assertThat(gcp.partitions().get(0).zones()).containsExactly("us-central1-a", "us-central1-c");
  }

  @Test
  void aPlacementGroupMissingFromTheInfrastructureIsFound() {
    Synthesized s = Synthesized.example("aws.yml", Cloud.AWS);
    ((ObjectNode) s.json().path("resource").path("aws_placement_group")).remove("squall-h100-pg3-us-east-1b");
    assertThat(gaps(s.config(), s.json()))
        .containsExactly("partition h100: no placement group squall-h100-pg3-us-east-1b for h100-pg3 in us-east-1b");
    Synthesized g = Synthesized.example("gcp.yml", Cloud.GCP);
    ((ObjectNode) g.json().path("resource").path("google_compute_resource_policy"))
        .remove("squall-squall-squall-h100-pg2-us-central1-a");
    assertThat(gaps(g.config(), g.json())).singleElement().asString().contains("h100-pg2 in us-central1-a");
  }

  @Test
  void aPartitionMissingFromTheInfrastructureIsFound(@TempDir Path dir) {
    Synthesized made = Synthesized.example("aws.yml", Cloud.AWS);
    ClusterConfig grown = Synthesized.of(Synthesized.variant(dir, "aws.yml", Map.of("  partitions:\n",
        "  partitions:\n    a100:\n      nodes: a100-[1-2]\n      instance-types: [p4d.24xlarge]\n")), Cloud.AWS).config();
    assertThat(gaps(grown, made.json())).containsExactly("partition a100: no launch template for p4d.24xlarge",
        "partition a100: no placement group squall-a100-us-east-1a for a100 in us-east-1a",
        "partition a100: no placement group squall-a100-us-east-1b for a100 in us-east-1b");
  }
}
