package io.squall.infra.aws;

import com.hashicorp.cdktf.TerraformOutput;
import com.hashicorp.cdktf.TerraformOutputConfig;
import com.hashicorp.cdktf.TerraformStack;
import io.squall.infra.config.ClusterConfig;
import io.squall.infra.tf.Elements;
import io.squall.infra.tf.GenericProvider;
import java.util.List;
import java.util.Map;

/**
 * Everything a Squall cluster needs on AWS, from its configuration: network, security groups,
 * placement groups, launch templates, roles, the interruption queue and its EventBridge rules,
 * the bucket, the state database and the controller. The parts are made in the order their
 * references need; Terraform itself orders the creation.
 */
public final class AwsInfrastructure {
  /** The Terraform AWS provider this JSON is written for (the attribute names of its 5.x line). */
  static final String PROVIDER_VERSION = "~> 5.80";

  private AwsInfrastructure() {}

  public static void addTo(TerraformStack stack, ClusterConfig config) {
    GenericProvider provider = new GenericProvider(stack, "aws", "hashicorp/aws", PROVIDER_VERSION, Map.of(
        "region", config.aws().region(),
        "default_tags", Map.of("tags", Map.of("squall:cluster", config.cluster()))));
    AwsScope s = new AwsScope(stack, provider, config);
    AwsNetwork network = new AwsNetwork(s);
    AwsSecurityGroups groups = new AwsSecurityGroups(s, network);
    AwsCheckpointBucket bucket = new AwsCheckpointBucket(s);
    AwsStateDatabase database = new AwsStateDatabase(s, network, groups);
    AwsInterruptionEvents events = new AwsInterruptionEvents(s);
    // Made empty: its value is put by hand, so the cluster secret is in no Terraform file or state.
    String agentToken = Elements.ref(s.resource("aws_secretsmanager_secret", "agent_token", Map.of(
        "name", config.cluster() + "/agent-token",
        "description", "Squall's squall.agent-token (SQUALL_AGENT_TOKEN): put its value before the controller boots")),
        "arn");
    AwsRoles roles = new AwsRoles(s, bucket);
    AwsLaunchTemplates templates = new AwsLaunchTemplates(s, groups, roles.nodeProfile);
    new AwsPlacementGroups(s);
    ControllerFiles files = new ControllerFiles(s, bucket, network, groups, roles, events);
    roles.grantController(s, ControllerPolicy.statements(s, roles.nodeRoleArn,
        List.copyOf(network.nodeSubnets.values()), groups.nodes, templates.arns, events.queueArn,
        List.of(database.secretArn, agentToken),
        List.of(bucket.objects(ControllerFiles.CONFIG), bucket.objects(ControllerFiles.INFRA_CONFIG),
            bucket.objects(config.infra().distribution()))));
    AwsController controller = new AwsController(s, network, groups, roles, bucket, files, database, agentToken);
    output(stack, "controller_private_ip", Elements.ref(controller.instance, "private_ip"));
    output(stack, "controller_public_ip", Elements.ref(controller.instance, "public_ip"));
    output(stack, "checkpoint_bucket", bucket.name);
    output(stack, "interruption_queue_url", events.queueUrl);
    output(stack, "agent_token_secret", agentToken);
    output(stack, "database_address", database.address);
  }

  private static void output(TerraformStack stack, String name, String value) {
    new TerraformOutput(stack, name, TerraformOutputConfig.builder().value(value).build());
  }
}
