package io.squall.infra.aws;

import io.squall.infra.tf.Elements;
import io.squall.infra.tf.TemplateText;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The controller's configuration in the bucket: {@code controller/squall.yml}, the very file
 * infra was synthesized from, and {@code controller/infra.yml}, what Terraform made that the
 * controller needs (subnets, the nodes' security group, the node instance profile, the queue's
 * URL). The controller reads both, infra.yml last, so its values win.
 */
final class ControllerFiles {
  static final String CONFIG = "controller/squall.yml";
  static final String INFRA_CONFIG = "controller/infra.yml";

  /** The objects' keys as references, so that the controller is made after them. */
  final String config;
  final String infraConfig;

  ControllerFiles(AwsScope s, AwsCheckpointBucket bucket, AwsNetwork network, AwsSecurityGroups groups,
      AwsRoles roles, AwsInterruptionEvents events) {
    config = Elements.ref(s.resource("aws_s3_object", "controller_config", Map.of("bucket", bucket.name, "key", CONFIG,
        "content", TemplateText.literal(s.config.file().text()), "server_side_encryption", "AES256")), "key");
    String subnets = network.nodeSubnets.entrySet().stream()
        .map(e -> "      \"" + e.getKey() + "\": \"" + e.getValue() + "\"\n")
        .collect(Collectors.joining());
    String infra = "# Written by squall infra synth: what Terraform made. The controller reads it after squall.yml.\n"
        + "squall:\n"
        + "  aws:\n"
        + "    region: \"" + s.config.aws().region() + "\"\n"
        + "    subnets:\n" + subnets
        + "    security-group-ids: [\"" + groups.nodes + "\"]\n"
        + "    instance-profile: \"" + roles.nodeProfile + "\"\n"
        + "    interruption-queue-url: \"" + events.queueUrl + "\"\n";
    infraConfig = Elements.ref(s.resource("aws_s3_object", "controller_infra_config", Map.of("bucket", bucket.name,
        "key", INFRA_CONFIG, "content", infra, "server_side_encryption", "AES256")), "key");
  }
}
