package io.squall.infra.gcp;

import com.hashicorp.cdktf.TerraformResource;
import com.hashicorp.cdktf.TerraformVariable;
import com.hashicorp.cdktf.TerraformVariableConfig;
import io.squall.infra.tf.Elements;
import java.util.List;
import java.util.Map;

/**
 * Cloud SQL PostgreSQL for the controller's state, reachable only on its private address in the
 * network (private services access; no public IP, TLS required). The password is the sensitive
 * variable {@code db_password}, given to {@code terraform apply} and kept in a Secret Manager secret
 * the controller reads at boot: it is in no JSON file.
 */
final class GcpStateDatabase {
  static final String DEFAULT_TIER = "db-custom-2-7680";

  final String address;
  final String passwordSecret;

  GcpStateDatabase(GcpScope s, GcpNetwork network) {
    String password = new TerraformVariable(s.stack, "db_password", TerraformVariableConfig.builder()
        .type("string").sensitive(true)
        .description("The controller's PostgreSQL password (Cloud SQL user squall)").build()).getStringValue();
    TerraformResource range = s.resource("google_compute_global_address", "sql", Map.of(
        "name", s.named("sql"), "purpose", "VPC_PEERING", "address_type", "INTERNAL", "prefix_length", 16,
        "network", network.network));
    TerraformResource peering = s.resource("google_service_networking_connection", "sql", Map.of(
        "network", network.network, "service", "servicenetworking.googleapis.com",
        "reserved_peering_ranges", List.of(Elements.ref(range, "name"))));
    String tier = s.config.infra().databaseTier();
    TerraformResource db = s.resource("google_sql_database_instance", "state", Map.of(
        "name", s.named("state"),
        "region", s.config.gcp().region(),
        "database_version", "POSTGRES_16",
        "deletion_protection", true,
        "settings", Map.of(
            "tier", tier != null ? tier : DEFAULT_TIER,
            "ip_configuration", Map.of("ipv4_enabled", false, "private_network", network.network,
                "ssl_mode", "ENCRYPTED_ONLY"),
            "backup_configuration", Map.of("enabled", true, "point_in_time_recovery_enabled", true)),
        // The private address needs the peering first; nothing in the attributes says so.
        "depends_on", List.of(Elements.address(peering))));
    s.resource("google_sql_database", "squall", Map.of("name", "squall", "instance", Elements.ref(db, "name")));
    s.resource("google_sql_user", "squall", Map.of("name", "squall", "instance", Elements.ref(db, "name"),
        "password", password));
    TerraformResource secret = s.resource("google_secret_manager_secret", "db_password", Map.of(
        "secret_id", s.named("db-password"), "replication", Map.of("auto", Map.of())));
    s.resource("google_secret_manager_secret_version", "db_password", Map.of(
        "secret", Elements.ref(secret, "id"), "secret_data", password));
    address = Elements.ref(db, "private_ip_address");
    passwordSecret = Elements.ref(secret, "secret_id");
  }
}
