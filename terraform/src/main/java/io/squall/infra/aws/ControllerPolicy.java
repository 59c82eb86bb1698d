package io.squall.infra.aws;

import java.util.ArrayList;
import java.util.List;

/**
 * What the controller's role may do: exactly the EC2, SQS and IAM calls of {@code providers/aws}
 * (IamCoverageTest derives those from the provider's bytecode and holds this list to them), each
 * scoped as far as AWS allows, plus reading its own boot files and secrets.
 *
 * <p>Scoping: instances and volumes only with the cluster's {@code squall:cluster} tag (required
 * on launch, checked on terminate and re-tag); placement groups by the cluster's name prefix; the
 * launch only into the made subnets, the nodes' security group and the node image; PassRole only
 * of the node role to EC2. EC2's Describe calls take no resource-level permissions, so they alone
 * are on {@code *}.
 */
final class ControllerPolicy {
  private ControllerPolicy() {}

  /**
   * @param nodeRole the node role's ARN
   * @param subnets the node subnets' ids
   * @param launchTemplates the launch templates' ARNs
   * @param queue the interruption queue's ARN
   * @param secrets the ARNs of the secrets the controller reads at boot
   * @param bootFiles the S3 object ARNs (patterns) it reads at boot
   */
  static List<Statement> statements(AwsScope s, String nodeRole, List<String> subnets, String nodesGroup,
      List<String> launchTemplates, String queue, List<String> secrets, List<String> bootFiles) {
    String cluster = s.config.cluster();
    String tag = "aws:ResourceTag/squall:cluster";
    String instances = s.regional("ec2", "instance/*");
    String volumes = s.regional("ec2", "volume/*");
    String placementGroups = s.regional("ec2", "placement-group/" + cluster + "-*");
    List<String> launchResources = new ArrayList<>(List.of(s.regional("ec2", "network-interface/*"),
        s.regional("ec2", "spot-instances-request/*"), s.regional("ec2", "security-group/" + nodesGroup),
        placementGroups, s.image(s.config.aws().imageId())));
    subnets.forEach(id -> launchResources.add(s.regional("ec2", "subnet/" + id)));
    launchResources.addAll(launchTemplates);
    if (s.config.aws().keyName() != null) {
      launchResources.add(s.regional("ec2", "key-pair/" + s.config.aws().keyName()));
    }
    return List.of(
        Statement.allow("Describe", List.of("ec2:DescribeInstanceTopology", "ec2:DescribeInstanceTypeOfferings",
            "ec2:DescribeInstances", "ec2:DescribeSpotPriceHistory"), List.of("*")),
        Statement.allow("LaunchTaggedNodes", List.of("ec2:RunInstances"), List.of(instances, volumes))
            .when("StringEquals", "aws:RequestTag/squall:cluster", cluster),
        Statement.allow("LaunchWith", List.of("ec2:RunInstances"), launchResources),
        Statement.allow("TagOnLaunch", List.of("ec2:CreateTags"), List.of(instances, volumes, placementGroups))
            .when("StringEquals", "ec2:CreateAction", "RunInstances", "CreatePlacementGroup"),
        Statement.allow("NameOwnNodes", List.of("ec2:CreateTags"), List.of(instances))
            .when("StringEquals", tag, cluster),
        Statement.allow("PlacementGroups", List.of("ec2:CreatePlacementGroup"), List.of(placementGroups)),
        Statement.allow("TerminateOwnNodes", List.of("ec2:TerminateInstances"), List.of(instances))
            .when("StringEquals", tag, cluster),
        Statement.allow("PassNodeRole", List.of("iam:PassRole"), List.of(nodeRole))
            .when("StringEquals", "iam:PassedToService", "ec2.amazonaws.com"),
        Statement.allow("InterruptionQueue", List.of("sqs:DeleteMessage", "sqs:ReceiveMessage"), List.of(queue)),
        Statement.allow("BootSecrets", List.of("secretsmanager:GetSecretValue"), secrets),
        Statement.allow("BootFiles", List.of("s3:GetObject"), bootFiles));
  }
}
