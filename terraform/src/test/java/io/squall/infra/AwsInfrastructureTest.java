package io.squall.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.infra.config.Cloud;
import io.squall.spot.events.Ec2Events;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AwsInfrastructureTest {
  private static final Synthesized AWS = Synthesized.example("aws.yml", Cloud.AWS);

  @Test
  void launchTemplatesRequireImdsV2AndGiveP5AnEfaInterfacePerNetworkCard() {
    JsonNode p5 = AWS.resource("aws_launch_template", "p5_48xlarge");
    assertThat(p5.path("instance_type").asText()).isEqualTo("p5.48xlarge");
    assertThat(p5.path("image_id").asText()).isEqualTo("ami-0123456789abcdef0");
    assertThat(p5.path("metadata_options").path("http_tokens").asText()).isEqualTo("required");
    assertThat(p5.path("network_interfaces")).hasSize(32);
    p5.path("network_interfaces").forEach(nic -> {
      int card = nic.path("network_card_index").asInt();
      // The primary, EFA with ENA, holds the node's address; the other cards' are EFA-only.
      assertThat(nic.path("interface_type").asText()).isEqualTo(card == 0 ? "efa" : "efa-only");
      assertThat(nic.path("device_index").asInt()).isEqualTo(card == 0 ? 0 : 1);
      assertThat(Synthesized.texts(nic.path("security_groups"))).containsExactly("${aws_security_group.nodes.id}");
    });
    assertThat(p5.has("vpc_security_group_ids")).isFalse();
    assertThat(p5.path("iam_instance_profile").path("name").asText()).isEqualTo("${aws_iam_instance_profile.node.name}");
    assertThat(AWS.resource("aws_launch_template", "p5en_48xlarge").path("network_interfaces")).hasSize(16);
  }

  @Test
  void securityGroupsLetAgentsAndControllerTalkAndEfaFlowWithinTheNodesGroup() {
    JsonNode api = AWS.resource("aws_vpc_security_group_ingress_rule", "controller_api_from_nodes");
    assertThat(api.path("from_port").asInt()).isEqualTo(6820);
    assertThat(api.path("security_group_id").asText()).isEqualTo("${aws_security_group.controller.id}");
    assertThat(api.path("referenced_security_group_id").asText()).isEqualTo("${aws_security_group.nodes.id}");
    JsonNode agent = AWS.resource("aws_vpc_security_group_ingress_rule", "nodes_agent_from_controller");
    assertThat(agent.path("from_port").asInt()).isEqualTo(6818);
    assertThat(agent.path("referenced_security_group_id").asText()).isEqualTo("${aws_security_group.controller.id}");
    for (JsonNode efa : List.of(AWS.resource("aws_vpc_security_group_ingress_rule", "nodes_all_from_nodes"),
        AWS.resource("aws_vpc_security_group_egress_rule", "nodes_all_to_nodes"))) {
      assertThat(efa.path("ip_protocol").asText()).isEqualTo("-1");
      assertThat(efa.path("security_group_id").asText()).isEqualTo("${aws_security_group.nodes.id}");
      assertThat(efa.path("referenced_security_group_id").asText()).isEqualTo("${aws_security_group.nodes.id}");
    }
    assertThat(AWS.resource("aws_vpc_security_group_ingress_rule", "controller_api_from_admin_0").path("cidr_ipv4")
        .asText()).isEqualTo("203.0.113.0/24");
  }

  @Test
  void eventBridgeSendsTheThreeKindsOfEc2EventsTheControllerReadsToItsQueue() {
    List<String> detailTypes = new ArrayList<>();
    for (String rule : List.of("spot_interruption", "rebalance", "state_change")) {
      String pattern = AWS.resource("aws_cloudwatch_event_rule", rule).path("event_pattern").asText();
      detailTypes.add(pattern);
      assertThat(AWS.resource("aws_cloudwatch_event_target", rule).path("arn").asText())
          .isEqualTo("${aws_sqs_queue.interruptions.arn}");
    }
    assertThat(String.join("\n", detailTypes)).contains(Ec2Events.SPOT_INTERRUPTION_WARNING,
        Ec2Events.REBALANCE_RECOMMENDATION, Ec2Events.STATE_CHANGE, "\"source\":[\"aws.ec2\"]");
    assertThat(AWS.resource("aws_sqs_queue", "interruptions").path("name").asText()).isEqualTo("squall-interruptions");
    JsonNode statement = AWS.data("aws_iam_policy_document", "interruption_queue").path("statement").get(0);
    assertThat(Synthesized.texts(statement.path("actions"))).containsExactly("sqs:SendMessage");
    assertThat(Synthesized.texts(statement.path("principals").get(0).path("identifiers")))
        .containsExactly("events.amazonaws.com");
    assertThat(Synthesized.texts(statement.path("condition").get(0).path("values"))).hasSize(3)
        .allMatch(arn -> arn.startsWith("${aws_cloudwatch_event_rule."));
  }

  @Test
  void theBucketIsPrivateAndEncrypted() {
    assertThat(AWS.resource("aws_s3_bucket", "checkpoints").path("bucket").asText())
        .isEqualTo("squall-checkpoints-123456789012");
    JsonNode block = AWS.resource("aws_s3_bucket_public_access_block", "checkpoints");
    for (String flag : List.of("block_public_acls", "block_public_policy", "ignore_public_acls",
        "restrict_public_buckets")) {
      assertThat(block.path(flag).asBoolean()).as(flag).isTrue();
    }
    assertThat(AWS.resource("aws_s3_bucket_server_side_encryption_configuration", "checkpoints").path("rule").get(0)
        .path("apply_server_side_encryption_by_default").path("sse_algorithm").asText()).isEqualTo("AES256");
  }

  @Test
  void theDatabaseIsEncryptedPrivateAndItsPasswordIsNoWhereInTheJson() {
    JsonNode db = AWS.resource("aws_db_instance", "state");
    assertThat(db.path("engine").asText()).isEqualTo("postgres");
    assertThat(db.path("storage_encrypted").asBoolean()).isTrue();
    assertThat(db.path("publicly_accessible").asBoolean()).isFalse();
    assertThat(db.path("manage_master_user_password").asBoolean()).isTrue();
    assertThat(db.has("password")).isFalse();
    assertThat(AWS.json().toString()).doesNotContainIgnoringCase("\"password\":");
  }

  @Test
  void theControllerBootsTheServerFromTheBucketWithItsSecretsAndBothConfigFiles() {
    JsonNode controller = AWS.resource("aws_instance", "controller");
    assertThat(controller.path("metadata_options").path("http_tokens").asText()).isEqualTo("required");
    assertThat(controller.path("iam_instance_profile").asText()).isEqualTo("${aws_iam_instance_profile.controller.name}");
    String userData = controller.path("user_data").asText();
    assertThat(userData).contains("s3://${aws_s3_bucket.checkpoints.id}/dist/squall-server.tar.gz",
        "${aws_s3_object.controller_config.key}", "${aws_s3_object.controller_infra_config.key}",
        "${aws_db_instance.state.master_user_secret[0].secret_arn}", "${aws_secretsmanager_secret.agent_token.arn}",
        "jdbc:postgresql://${aws_db_instance.state.address}:5432/squall?sslmode=require", "--config /etc/squall/squall.yml --config /etc/squall/infra.yml",
        "SQUALL_CONTROLLER_URL=http://$ip:6820"); // the nodes reach the controller at its private address
    // The same apply makes the bucket: the distribution is uploaded after the machine boots.
    assertThat(userData).contains("\nuntil aws s3 cp 's3://${aws_s3_bucket.checkpoints.id}/dist/squall-server.tar.gz'"
        + " /tmp/squall-server.tar.gz; do\n");
    // Shell text is escaped for Terraform: no ${ of the script's own may reach it unescaped.
    assertThat(userData.replace("$${", "").replaceAll("\\$\\{(aws_|data\\.)[^}]+}", "")).doesNotContain("${");
    String infraYml = AWS.resource("aws_s3_object", "controller_infra_config").path("content").asText();
    assertThat(infraYml).contains("\"us-east-1a\": \"${aws_subnet.nodes_us-east-1a.id}\"",
        "security-group-ids: [\"${aws_security_group.nodes.id}\"]",
        "interruption-queue-url: \"${aws_sqs_queue.interruptions.url}\"");
    // The controller's own file goes up as written, its placeholders kept from Terraform.
    assertThat(AWS.resource("aws_s3_object", "controller_config").path("content").asText())
        .contains("agent-token: $${SQUALL_AGENT_TOKEN}");
  }

  /**
   * server.env's variables win over squall.yml: the boot script sets squall.controller-url only
   * when the file does not, and to https when the file serves TLS; nodes told http:// would never
   * reach an HTTPS-only controller, and a name its certificate holds would be lost.
   */
  @Test
  void theBootScriptLeavesTheControllersAddressToTheFileAndUsesHttpsWithTls(@TempDir Path dir) throws Exception {
    String agentToken = "  agent-token: ${SQUALL_AGENT_TOKEN}\n";
    Synthesized tls = Synthesized.of(Synthesized.variant(dir, "aws.yml", Map.of(agentToken,
        agentToken + "  tls: {cert: /etc/squall/tls/controller.pem, key: /etc/squall/tls/controller.key}\n")), Cloud.AWS);
    assertThat(tls.resource("aws_instance", "controller").path("user_data").asText())
        .contains("\nSQUALL_CONTROLLER_URL=https://$ip:6820\n");
    Path named = java.nio.file.Files.createDirectories(dir.resolve("named"));
    Synthesized given = Synthesized.of(Synthesized.variant(named, "aws.yml", Map.of(agentToken,
        agentToken + "  controller-url: https://squall.example.internal:6820\n")), Cloud.AWS);
    assertThat(given.resource("aws_instance", "controller").path("user_data").asText())
        .doesNotContain("SQUALL_CONTROLLER_URL=").contains("\n# SQUALL_CONTROLLER_URL: squall.controller-url in squall.yml\n");
  }

  @Test
  void aVpcIsMadeWithAPrivateSubnetPerZoneBehindNat() {
    assertThat(AWS.resource("aws_vpc", "squall").path("cidr_block").asText()).isEqualTo("10.42.0.0/16");
    assertThat(AWS.resource("aws_subnet", "nodes_us-east-1b").path("availability_zone").asText()).isEqualTo("us-east-1b");
    assertThat(AWS.resource("aws_route", "nodes_default").path("nat_gateway_id").asText())
        .isEqualTo("${aws_nat_gateway.squall.id}");
    assertThat(AWS.resource("aws_instance", "controller").path("subnet_id").asText()).isEqualTo("${aws_subnet.public.id}");
  }

  @Test
  void existingSubnetsAreLookedUpByIdAndNoNetworkIsMade(@TempDir Path dir) {
    Synthesized existing = Synthesized.of(Synthesized.variant(dir, "aws.yml", Map.of(
        "    region: us-east-1\n",
        "    region: us-east-1\n    subnets: {us-east-1a: subnet-0aaa, us-east-1b: subnet-0bbb}\n")), Cloud.AWS);
    assertThat(existing.json().path("resource").has("aws_vpc")).isFalse();
    assertThat(existing.json().path("resource").has("aws_subnet")).isFalse();
    assertThat(existing.data("aws_subnet", "nodes_us-east-1b").path("id").asText()).isEqualTo("subnet-0bbb");
    assertThat(existing.resource("aws_security_group", "nodes").path("vpc_id").asText())
        .isEqualTo("${data.aws_subnet.nodes_us-east-1a.vpc_id}");
  }
}
