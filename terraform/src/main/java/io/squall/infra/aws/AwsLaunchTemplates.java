package io.squall.infra.aws;

import io.squall.infra.tf.Elements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A launch template per instance type the partitions launch, named {@code CLUSTER-TYPE}: the node
 * image, the node instance profile, IMDSv2 required (a job cannot read the role's credentials with
 * a forged request), and for EFA types one EFA interface per network card, so that NCCL gets the
 * whole fabric; other types take the nodes' security group on their one interface.
 *
 * <p>The AWS provider launches with {@code image-id} and builds the same interfaces itself (it
 * must: an interface carries its subnet, and a template serves every zone), so these templates
 * are for launching a node by hand or from other tools with what Squall launches. That is why
 * the card counts and the layout here are the provider's ({@code AwsSettings.DEFAULT_EFA_INTERFACES}
 * with {@code squall.aws.efa-interfaces} over it, {@code EfaInterfaces}); infra's main code knows
 * no cloud SDK, so LaunchTemplateInterfacesTest holds the two to each other.
 */
final class AwsLaunchTemplates {
  /**
   * Network cards of the EFA instance types Squall's GPU partitions use (EC2 User Guide, "Network
   * cards"): each card gets one EFA interface. A type not listed (or at 0 in
   * {@code squall.aws.efa-interfaces}) gets a plain interface.
   */
  static final Map<String, Integer> EFA_NETWORK_CARDS = Map.of(
      "p4d.24xlarge", 4,
      "p4de.24xlarge", 4,
      "p5.48xlarge", 32,
      "p5e.48xlarge", 32,
      "p5en.48xlarge", 16);

  /** The templates' ARNs. */
  final List<String> arns = new ArrayList<>();

  AwsLaunchTemplates(AwsScope s, AwsSecurityGroups groups, String instanceProfile) {
    Map<String, Integer> efaCards = new TreeMap<>(EFA_NETWORK_CARDS);
    efaCards.putAll(s.config.aws().efaInterfaces());
    for (String type : s.config.instanceTypes()) {
      Map<String, Object> t = new LinkedHashMap<>();
      t.put("name", s.named(type.replace('.', '-')));
      t.put("image_id", s.config.aws().imageId());
      t.put("instance_type", type);
      t.put("iam_instance_profile", Map.of("name", instanceProfile));
      t.put("metadata_options", Map.of("http_endpoint", "enabled", "http_tokens", "required",
          "http_put_response_hop_limit", 1));
      if (s.config.aws().keyName() != null) {
        t.put("key_name", s.config.aws().keyName());
      }
      int cards = efaCards.getOrDefault(type, 0);
      if (cards > 0) {
        List<Map<String, Object>> interfaces = new ArrayList<>();
        for (int card = 0; card < cards; card++) {
          // The primary interface (device 0 on card 0) is EFA with ENA: the node's one address. The
          // others are EFA-only, device 1 on their card: they take no address from the subnet.
          interfaces.add(Map.of("device_index", card == 0 ? 0 : 1, "network_card_index", card,
              "interface_type", card == 0 ? "efa" : "efa-only", "security_groups", List.of(groups.nodes),
              "delete_on_termination", true));
        }
        t.put("network_interfaces", interfaces);
      } else {
        t.put("vpc_security_group_ids", List.of(groups.nodes));
      }
      t.put("tag_specifications", List.of(Map.of("resource_type", "instance",
          "tags", Map.of("squall:cluster", s.config.cluster()))));
      arns.add(Elements.ref(s.resource("aws_launch_template", Elements.name(type), t), "arn"));
    }
  }
}
