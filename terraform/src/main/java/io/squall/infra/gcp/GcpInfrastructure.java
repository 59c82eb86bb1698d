package io.squall.infra.gcp;

import com.hashicorp.cdktf.TerraformOutput;
import com.hashicorp.cdktf.TerraformOutputConfig;
import com.hashicorp.cdktf.TerraformStack;
import io.squall.infra.config.ClusterConfig;
import io.squall.infra.tf.Elements;
import io.squall.infra.tf.GenericProvider;
import java.util.Map;

/**
 * Everything a Squall cluster needs on GCP, from its configuration: service accounts and the
 * controller's custom role, network, NAT and firewall, compact placement policies, instance
 * templates, the bucket, Cloud SQL and the controller.
 */
public final class GcpInfrastructure {
  /** The Terraform Google provider this JSON is written for (the attribute names of its 6.x line). */
  static final String PROVIDER_VERSION = "~> 6.0";

  private GcpInfrastructure() {}

  public static void addTo(TerraformStack stack, ClusterConfig config) {
    GenericProvider provider = new GenericProvider(stack, "google", "hashicorp/google", PROVIDER_VERSION, Map.of(
        "project", config.gcp().project(), "region", config.gcp().region(),
        "default_labels", Map.of("squall-cluster", config.cluster())));
    GcpScope s = new GcpScope(stack, provider, config);
    GcpServiceAccounts accounts = new GcpServiceAccounts(s);
    GcpNetwork network = new GcpNetwork(s, accounts);
    new GcpPlacementPolicies(s);
    new GcpInstanceTemplates(s, network, accounts);
    GcpBucket bucket = new GcpBucket(s, accounts, network);
    GcpStateDatabase database = new GcpStateDatabase(s, network);
    // Made empty: its value is added by hand, so the cluster secret is in no Terraform file or state.
    String agentToken = Elements.ref(s.resource("google_secret_manager_secret", "agent_token", Map.of(
        "secret_id", s.named("agent-token"), "replication", Map.of("auto", Map.of()))), "secret_id");
    for (Map.Entry<String, String> secret : Map.of("agent_token", agentToken, "db_password", database.passwordSecret)
        .entrySet()) {
      s.resource("google_secret_manager_secret_iam_member", "controller_" + secret.getKey(), Map.of(
          "secret_id", secret.getValue(), "role", "roles/secretmanager.secretAccessor",
          "member", "serviceAccount:" + accounts.controllerEmail));
    }
    GcpController controller = new GcpController(s, network, accounts, bucket, database, agentToken);
    output(stack, "controller_internal_ip", Elements.ref(controller.instance, "network_interface[0].network_ip"));
    output(stack, "controller_external_ip",
        Elements.ref(controller.instance, "network_interface[0].access_config[0].nat_ip"));
    output(stack, "checkpoint_bucket", bucket.name);
    output(stack, "node_service_account", accounts.nodeEmail);
    output(stack, "agent_token_secret", agentToken);
    output(stack, "database_address", database.address);
  }

  private static void output(TerraformStack stack, String name, String value) {
    new TerraformOutput(stack, name, TerraformOutputConfig.builder().value(value).build());
  }
}
