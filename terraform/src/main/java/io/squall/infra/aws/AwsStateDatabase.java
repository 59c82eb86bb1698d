package io.squall.infra.aws;

import com.hashicorp.cdktf.TerraformResource;
import io.squall.infra.tf.Elements;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL on RDS for the controller's state: in the node subnets (RDS wants two zones), not
 * publicly accessible, storage encrypted, and the master password made and kept by RDS in Secrets
 * Manager ({@code manage_master_user_password}), so no password is in the Terraform JSON or state.
 */
final class AwsStateDatabase {
  static final String DEFAULT_CLASS = "db.t4g.medium";

  final String address;
  /** The Secrets Manager secret RDS keeps the master user's name and password in (JSON). */
  final String secretArn;

  AwsStateDatabase(AwsScope s, AwsNetwork network, AwsSecurityGroups groups) {
    TerraformResource subnets = s.resource("aws_db_subnet_group", "state", Map.of("name", s.named("state"),
        "subnet_ids", List.copyOf(network.nodeSubnets.values())));
    String tier = s.config.infra().databaseTier();
    TerraformResource db = s.resource("aws_db_instance", "state", Map.ofEntries(
        Map.entry("identifier", s.named("state")),
        Map.entry("engine", "postgres"),
        Map.entry("engine_version", "16"),
        Map.entry("instance_class", tier != null ? tier : DEFAULT_CLASS),
        Map.entry("allocated_storage", 20),
        Map.entry("storage_encrypted", true),
        Map.entry("publicly_accessible", false),
        Map.entry("db_name", "squall"),
        Map.entry("username", "squall"),
        Map.entry("manage_master_user_password", true),
        Map.entry("db_subnet_group_name", Elements.ref(subnets, "name")),
        Map.entry("vpc_security_group_ids", List.of(groups.database)),
        Map.entry("backup_retention_period", 7),
        Map.entry("deletion_protection", true),
        Map.entry("final_snapshot_identifier", s.named("state-final"))));
    address = Elements.ref(db, "address");
    secretArn = Elements.ref(db, "master_user_secret[0].secret_arn");
  }
}
