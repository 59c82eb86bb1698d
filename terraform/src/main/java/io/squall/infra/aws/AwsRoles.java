package io.squall.infra.aws;

import com.hashicorp.cdktf.TerraformResource;
import io.squall.infra.tf.Elements;
import java.util.List;
import java.util.Map;

/**
 * The two EC2 roles and their instance profiles. The node role may read the distributions and
 * read and write checkpoints in the bucket, nothing else. The controller role gets
 * {@link ControllerPolicy}.
 */
final class AwsRoles {
  final String nodeRoleArn;
  /** The node instance profile's name: what the controller passes in RunInstances ({@code squall.aws.instance-profile}). */
  final String nodeProfile;
  private final String controllerRoleName;
  final String controllerProfile;

  AwsRoles(AwsScope s, AwsCheckpointBucket bucket) {
    String trust = Statement.document(s, "ec2_trust", List.of(
        Statement.allow("Ec2AssumesRole", List.of("sts:AssumeRole"), null).forService("ec2.amazonaws.com")));
    TerraformResource node = s.resource("aws_iam_role", "node", Map.of("name", s.named("node"),
        "assume_role_policy", trust));
    nodeRoleArn = Elements.ref(node, "arn");
    String nodePolicy = Statement.document(s, "node", List.of(
        Statement.allow("ReadDistributions", List.of("s3:GetObject"), List.of(bucket.objects("dist/*"))),
        Statement.allow("Checkpoints", List.of("s3:DeleteObject", "s3:GetObject", "s3:PutObject"),
            List.of(bucket.objects("checkpoints/*"))),
        Statement.allow("ListCheckpoints", List.of("s3:ListBucket"), List.of(bucket.arn))
            .when("StringLike", "s3:prefix", "checkpoints/*")));
    s.resource("aws_iam_role_policy", "node", Map.of("name", s.named("node"), "role", Elements.ref(node, "id"),
        "policy", nodePolicy));
    nodeProfile = Elements.ref(s.resource("aws_iam_instance_profile", "node", Map.of(
        "name", s.config.aws().instanceProfile(), "role", Elements.ref(node, "name"))), "name");
    TerraformResource controller = s.resource("aws_iam_role", "controller", Map.of("name", s.named("controller"),
        "assume_role_policy", trust));
    controllerRoleName = Elements.ref(controller, "name");
    controllerProfile = Elements.ref(s.resource("aws_iam_instance_profile", "controller", Map.of(
        "name", s.named("controller"), "role", controllerRoleName)), "name");
  }

  /** Attaches the controller's policy, once what it names (templates, queue, secrets) exists. */
  void grantController(AwsScope s, List<Statement> statements) {
    s.resource("aws_iam_role_policy", "controller", Map.of("name", s.named("controller"),
        "role", controllerRoleName, "policy", Statement.document(s, "controller", statements)));
  }
}
