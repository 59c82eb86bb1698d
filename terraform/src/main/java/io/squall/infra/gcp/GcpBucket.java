package io.squall.infra.gcp;

import com.hashicorp.cdktf.TerraformResource;
import io.squall.infra.tf.Elements;
import io.squall.infra.tf.TemplateText;
import java.util.Map;

/**
 * The bucket for checkpoints ({@code checkpoints/}), the distributions ({@code dist/}) and the
 * controller's configuration ({@code controller/}): uniform bucket-level access, public access
 * prevention enforced. Nodes may read and write objects ({@code roles/storage.objectUser}), the
 * controller only read them; both on this bucket alone.
 */
final class GcpBucket {
  static final String CONFIG = "controller/squall.yml";
  static final String INFRA_CONFIG = "controller/infra.yml";

  final String name;
  /** The controller's configuration objects, as references so that the controller is made after them. */
  final String config;
  final String infraConfig;

  GcpBucket(GcpScope s, GcpServiceAccounts accounts, GcpNetwork network) {
    String given = s.config.infra().checkpointBucket();
    // Bucket names are global; project ids are too, so the default cannot clash with another's.
    TerraformResource bucket = s.resource("google_storage_bucket", "checkpoints", Map.of(
        "name", given != null ? given : s.config.gcp().project() + "-" + s.named("checkpoints"),
        "location", s.config.gcp().region(),
        "uniform_bucket_level_access", true,
        "public_access_prevention", "enforced"));
    name = Elements.ref(bucket, "name");
    s.resource("google_storage_bucket_iam_member", "node_objects", Map.of("bucket", name,
        "role", "roles/storage.objectUser", "member", "serviceAccount:" + accounts.nodeEmail));
    s.resource("google_storage_bucket_iam_member", "controller_objects", Map.of("bucket", name,
        "role", "roles/storage.objectViewer", "member", "serviceAccount:" + accounts.controllerEmail));
    config = Elements.ref(s.resource("google_storage_bucket_object", "controller_config", Map.of("bucket", name,
        "name", CONFIG, "content", TemplateText.literal(s.config.file().text()))), "name");
    StringBuilder infra = new StringBuilder()
        .append("# Written by squall infra synth: what Terraform made. The controller reads it after squall.yml.\n")
        .append("squall:\n")
        .append("  gcp:\n")
        .append("    network: \"").append(network.networkKey).append("\"\n");
    if (network.subnetworkKey != null) {
      infra.append("    subnetwork: \"").append(network.subnetworkKey).append("\"\n");
    }
    infra.append("    service-account-email: \"").append(accounts.nodeEmail).append("\"\n");
    infraConfig = Elements.ref(s.resource("google_storage_bucket_object", "controller_infra_config", Map.of(
        "bucket", name, "name", INFRA_CONFIG, "content", infra.toString())), "name");
  }
}
