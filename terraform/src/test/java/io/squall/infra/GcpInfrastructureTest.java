package io.squall.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.infra.config.Cloud;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GcpInfrastructureTest {
  private static final Synthesized GCP = Synthesized.example("gcp.yml", Cloud.GCP);

  @Test
  void instanceTemplatesAreSpotWhereThePartitionBuysSpotAndTerminateOnHostMaintenance() {
    JsonNode spot = GCP.resource("google_compute_instance_template", "squall-a3-highgpu-8g-spot");
    assertThat(spot.path("machine_type").asText()).isEqualTo("a3-highgpu-8g");
    JsonNode scheduling = spot.path("scheduling");
    assertThat(scheduling.path("provisioning_model").asText()).isEqualTo("SPOT");
    assertThat(scheduling.path("on_host_maintenance").asText()).isEqualTo("TERMINATE");
    assertThat(scheduling.path("instance_termination_action").asText()).isEqualTo("DELETE");
    assertThat(scheduling.path("automatic_restart").asBoolean()).isFalse();
    assertThat(spot.path("guest_accelerator").get(0).path("type").asText()).isEqualTo("nvidia-h100-80gb");
    assertThat(spot.path("guest_accelerator").get(0).path("count").asInt()).isEqualTo(8);
    assertThat(spot.path("service_account").path("email").asText()).isEqualTo("${google_service_account.node.email}");
    assertThat(spot.path("disk").get(0).path("source_image").asText())
        .isEqualTo("projects/my-project/global/images/family/squall-node");
    JsonNode standard = GCP.resource("google_compute_instance_template", "squall-a3-highgpu-8g-standard");
    assertThat(standard.path("scheduling").path("provisioning_model").asText()).isEqualTo("STANDARD");
    assertThat(standard.path("scheduling").path("on_host_maintenance").asText()).isEqualTo("TERMINATE");
  }

  @Test
  void anOnDemandPartitionGetsNoSpotTemplate(@TempDir Path dir) {
    Synthesized onDemand = Synthesized.of(Synthesized.variant(dir, "gcp.yml",
        Map.of("spot: spot-then-on-demand", "spot: on-demand")), Cloud.GCP);
    assertThat(onDemand.names("resource", "google_compute_instance_template"))
        .containsExactly("squall-a3-highgpu-8g-standard");
  }

  @Test
  void placementPoliciesAreCompact() {
    assertThat(GCP.resources("google_compute_resource_policy")).hasSize(4).allSatisfy(p -> {
      assertThat(p.path("group_placement_policy").path("collocation").asText()).isEqualTo("COLLOCATED");
      assertThat(p.path("region").asText()).isEqualTo("us-central1");
    });
  }

  @Test
  void cloudSqlHasNoPublicAddressAndItsPasswordComesFromAVariable() {
    JsonNode db = GCP.resource("google_sql_database_instance", "state");
    assertThat(db.path("database_version").asText()).startsWith("POSTGRES_");
    JsonNode ip = db.path("settings").path("ip_configuration");
    assertThat(ip.path("ipv4_enabled").asBoolean()).isFalse();
    assertThat(ip.path("private_network").asText()).isEqualTo("${google_compute_network.squall.id}");
    assertThat(Synthesized.texts(db.path("depends_on"))).containsExactly("google_service_networking_connection.sql");
    assertThat(GCP.resource("google_sql_user", "squall").path("password").asText()).isEqualTo("${var.db_password}");
    assertThat(GCP.json().path("variable").path("db_password").path("sensitive").asBoolean()).isTrue();
  }

  @Test
  void theBucketHasUniformAccessAndPublicAccessPreventionEnforced() {
    JsonNode bucket = GCP.resource("google_storage_bucket", "checkpoints");
    assertThat(bucket.path("uniform_bucket_level_access").asBoolean()).isTrue();
    assertThat(bucket.path("public_access_prevention").asText()).isEqualTo("enforced");
    assertThat(bucket.path("name").asText()).isEqualTo("my-project-squall-checkpoints");
    assertThat(GCP.resource("google_storage_bucket_iam_member", "node_objects").path("role").asText())
        .isEqualTo("roles/storage.objectUser");
  }

  /**
   * Any job on a node can use the node's service account: it may write checkpoints only, never the
   * distributions or the controller's configuration, which the controller's startup script (every
   * boot, as root) and new nodes install. Every grant on the bucket is held to prefixes.
   */
  @Test
  void nodesWriteOnlyCheckpointsAndReadOnlyDistributions() {
    String objects = "projects/_/buckets/${google_storage_bucket.checkpoints.name}/objects/";
    assertThat(GCP.resources("google_storage_bucket_iam_member")).hasSize(3)
        .allSatisfy(grant -> assertThat(grant.path("condition").path("expression").asText()).isNotBlank());
    JsonNode write = GCP.resource("google_storage_bucket_iam_member", "node_objects");
    assertThat(write.path("condition").path("expression").asText()).isEqualTo(
        "resource.type == \"storage.googleapis.com/Bucket\" || resource.name.startsWith(\"" + objects + "checkpoints/\")");
    JsonNode read = GCP.resource("google_storage_bucket_iam_member", "node_dist");
    assertThat(read.path("role").asText()).isEqualTo("roles/storage.objectViewer");
    assertThat(read.path("member").asText()).isEqualTo("serviceAccount:${google_service_account.node.email}");
    assertThat(read.path("condition").path("expression").asText())
        .isEqualTo("resource.name.startsWith(\"" + objects + "dist/\")");
    JsonNode controller = GCP.resource("google_storage_bucket_iam_member", "controller_objects");
    assertThat(controller.path("role").asText()).isEqualTo("roles/storage.objectViewer");
    assertThat(controller.path("condition").path("expression").asText()).isEqualTo("resource.name.startsWith(\""
        + objects + "controller/\") || resource.name == \"" + objects + "dist/squall-server.tar.gz\"");
  }

  @Test
  void firewallRulesGoByServiceAccount() {
    JsonNode api = GCP.resource("google_compute_firewall", "api-from-nodes");
    assertThat(api.path("allow").get(0).path("ports").get(0).asText()).isEqualTo("6820");
    assertThat(Synthesized.texts(api.path("source_service_accounts"))).containsExactly("${google_service_account.node.email}");
    assertThat(Synthesized.texts(api.path("target_service_accounts")))
        .containsExactly("${google_service_account.controller.email}");
    JsonNode agent = GCP.resource("google_compute_firewall", "agent-from-controller");
    assertThat(agent.path("allow").get(0).path("ports").get(0).asText()).isEqualTo("6818");
    assertThat(GCP.resource("google_compute_firewall", "nodes-internal").path("allow").get(0).path("protocol").asText())
        .isEqualTo("all");
  }

  @Test
  void theControllerBootsFromTheBucketAndInfraYmlNamesWhatWasMade() {
    String script = GCP.resource("google_compute_instance", "controller").path("metadata").path("startup-script").asText();
    assertThat(script).contains("gs://${google_storage_bucket.checkpoints.name}/dist/squall-server.tar.gz",
        "--secret='${google_secret_manager_secret.agent_token.secret_id}'", "--config /etc/squall/squall.yml --config /etc/squall/infra.yml",
        "SQUALL_CONTROLLER_URL=http://$ip:6820",
        "\nuntil gcloud storage cp 'gs://${google_storage_bucket.checkpoints.name}/dist/squall-server.tar.gz'"
            + " /tmp/squall-server.tar.gz; do\n");
    String infraYml = GCP.resource("google_storage_bucket_object", "controller_infra_config").path("content").asText();
    assertThat(infraYml).contains("network: \"global/networks/squall\"",
        "subnetwork: \"regions/us-central1/subnetworks/squall-nodes\"",
        "service-account-email: \"${google_service_account.node.email}\"");
  }

  @Test
  void theDefaultNetworkIsUsedAsItIs(@TempDir Path dir) {
    Synthesized onDefault = Synthesized.of(Synthesized.variant(dir, "gcp.yml", Map.of(
        "    network: global/networks/squall\n    subnetwork: regions/us-central1/subnetworks/squall-nodes\n", "")),
        Cloud.GCP);
    assertThat(onDefault.json().path("resource").has("google_compute_network")).isFalse();
    assertThat(onDefault.resource("google_compute_firewall", "nodes-internal").path("network").asText())
        .isEqualTo("projects/my-project/global/networks/default");
  }
}
