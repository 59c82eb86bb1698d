package io.squall.providers.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.hashicorp.cdktf.Testing;
import io.squall.infra.InfraStack;
import io.squall.infra.config.Cloud;
import io.squall.infra.config.ClusterConfig;
import io.squall.infra.config.ConfigFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.ec2.model.InstanceNetworkInterfaceSpecification;

/**
 * Infra's launch templates give each instance type the network interfaces the AWS provider
 * launches it with: the same card count (the provider's built-in table with
 * {@code squall.aws.efa-interfaces} over it) and the same layout. In this package, the provider's
 * own (package-private) {@link EfaInterfaces} answers.
 */
class LaunchTemplateInterfacesTest {
  private static final String NODES_GROUP = "${aws_security_group.nodes.id}";

  @Test
  void everyTemplateHasTheInterfacesTheProviderLaunchesItsTypeWith(@TempDir Path dir) throws Exception {
    List<String> types = new ArrayList<>(AwsSettings.DEFAULT_EFA_INTERFACES.keySet());
    types.add("m7i.large");
    String example = Files.readString(Path.of("..", "examples", "aws.yml"));
    String config = example
        .replace("instance-types: [p5.48xlarge]", "instance-types: [" + String.join(", ", types) + "]")
        .replace("  aws:\n", "  aws:\n    efa-interfaces: {p5e.48xlarge: 0, m7i.large: 1, p4d.24xlarge: 2}\n");
    assertThat(config).as("the example's partition and aws keys").isNotEqualTo(example)
        .contains("efa-interfaces", "m7i.large");
    Path file = Files.writeString(dir.resolve("aws.yml"), config);
    JsonNode templates = new ObjectMapper()
        .readTree(Testing.synth(InfraStack.create(Testing.app(), ClusterConfig.read(ConfigFile.read(file), Cloud.AWS))))
        .path("resource").path("aws_launch_template");
    AwsSettings provider = AwsSettings.builder("us-east-1").subnet("us-east-1a", "subnet-1").imageId("ami-1")
        .efaInterfaces("p5e.48xlarge", 0).efaInterfaces("m7i.large", 1).efaInterfaces("p4d.24xlarge", 2).build();

    for (String type : types) {
      JsonNode template = templates.path(type.replace('.', '_'));
      assertThat(template.path("instance_type").asText()).as(type).isEqualTo(type);
      List<Map<String, Object>> expected = new ArrayList<>();
      int cards = provider.efaInterfaces(type);
      if (cards > 0) {
        for (InstanceNetworkInterfaceSpecification i : EfaInterfaces.of(cards, "subnet-1", List.of(NODES_GROUP))) {
          expected.add(Map.of("network_card_index", i.networkCardIndex(), "device_index", i.deviceIndex(),
              "interface_type", i.interfaceType(), "security_groups", i.groups(),
              "delete_on_termination", i.deleteOnTermination()));
        }
      }
      assertThat(interfaces(template)).as(type).isEqualTo(expected);
      if (cards == 0) {
        assertThat(template.path("vpc_security_group_ids").get(0).asText()).as(type).isEqualTo(NODES_GROUP);
      }
    }
    assertThat(interfaces(templates.path("p5_48xlarge"))).hasSize(32);
  }

  private static List<Map<String, Object>> interfaces(JsonNode template) {
    List<Map<String, Object>> out = new ArrayList<>();
    template.path("network_interfaces").forEach(nic -> {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("network_card_index", nic.path("network_card_index").asInt());
      fields.put("device_index", nic.path("device_index").asInt());
      fields.put("interface_type", nic.path("interface_type").asText());
      List<String> groups = new ArrayList<>();
      nic.path("security_groups").forEach(g -> groups.add(g.asText()));
      fields.put("security_groups", groups);
      fields.put("delete_on_termination", nic.path("delete_on_termination").asBoolean());
      out.add(Map.copyOf(fields));
    });
    return out;
  }
}
