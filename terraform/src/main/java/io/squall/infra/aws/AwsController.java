package io.squall.infra.aws;

import io.squall.infra.ControllerBoot;
import com.hashicorp.cdktf.TerraformDataSource;
import com.hashicorp.cdktf.TerraformResource;
import io.squall.infra.tf.Elements;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The controller's machine: Amazon Linux 2023 (the SSM public parameter names the current AMI),
 * IMDSv2 required, encrypted root volume, and user data ({@code controller-user-data.sh}) that
 * fetches the server distribution and the configuration from the bucket, reads the database and
 * agent-token secrets, and starts {@code squall-server}.
 */
final class AwsController {
  static final String DEFAULT_TYPE = "m7i.large";
  private static final String AL2023 = "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64";

  final TerraformResource instance;

  /**
   * @param files the controller's configuration objects in the bucket
   * @param agentTokenSecret the agent token secret's ARN
   */
  AwsController(AwsScope s, AwsNetwork network, AwsSecurityGroups groups, AwsRoles roles,
      AwsCheckpointBucket bucket, ControllerFiles files, AwsStateDatabase database, String agentTokenSecret) {
    TerraformDataSource ami = s.data("aws_ssm_parameter", "al2023", Map.of("name", AL2023));
    Map<String, String> values = new LinkedHashMap<>();
    values.put("region", s.config.aws().region());
    values.put("bucket", bucket.name);
    values.put("distribution", s.config.infra().distribution());
    values.put("config", files.config);
    values.put("infra_config", files.infraConfig);
    values.put("db_host", database.address);
    values.put("db_secret", database.secretArn);
    values.put("agent_token_secret", agentTokenSecret);
    values.put("controller_url", s.config.controllerUrlEnvironment());
    String type = s.config.infra().controllerType();
    Map<String, Object> attributes = new LinkedHashMap<>();
    attributes.put("ami", Elements.ref(ami, "value"));
    attributes.put("instance_type", type != null ? type : DEFAULT_TYPE);
    attributes.put("subnet_id", network.controllerSubnet);
    attributes.put("associate_public_ip_address", network.controllerPublic);
    attributes.put("vpc_security_group_ids", List.of(groups.controller));
    attributes.put("iam_instance_profile", roles.controllerProfile);
    attributes.put("metadata_options", Map.of("http_endpoint", "enabled", "http_tokens", "required"));
    attributes.put("root_block_device", Map.of("encrypted", true, "volume_size", 30, "volume_type", "gp3"));
    attributes.put("user_data", ControllerBoot.script(AwsController.class, "controller-user-data.sh", values));
    attributes.put("user_data_replace_on_change", true);
    attributes.put("tags", Map.of("Name", s.named("controller")));
    instance = s.resource("aws_instance", "controller", attributes);
  }
}
