package io.squall.infra.gcp;

import com.hashicorp.cdktf.TerraformResource;
import io.squall.infra.tf.Elements;
import io.squall.infra.tf.TemplateText;
import java.util.Map;

/**
 * The bucket for checkpoints ({@code checkpoints/}), the distributions ({@code dist/}) and the
 * controller's configuration ({@code controller/}): uniform bucket-level access, public access
 * prevention enforced. Grants are held to prefixes by IAM conditions, as the AWS policies are:
 * nodes may list the bucket, read and write {@code checkpoints/} ({@code roles/storage.objectUser})
 * and read {@code dist/} (the agent archive); the controller may read {@code controller/} and its
 * distribution. Whatever a node's service account may write, any job on any node may write: were
 * {@code dist/} or {@code controller/} among it, a job could replace what the controller (whose
 * startup script runs at every boot, as root) and new nodes install.
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
    String objects = "projects/_/buckets/" + name + "/objects/";
    s.resource("google_storage_bucket_iam_member", "node_objects", Map.of("bucket", name,
        "role", "roles/storage.objectUser", "member", "serviceAccount:" + accounts.nodeEmail,
        "condition", Map.of("title", "checkpoints only",
            // A listing is checked on the bucket itself; every other call on the object it names.
            "expression", "resource.type == \"storage.googleapis.com/Bucket\" || "
                + startsWith(objects + "checkpoints/"))));
    s.resource("google_storage_bucket_iam_member", "node_dist", Map.of("bucket", name,
        "role", "roles/storage.objectViewer", "member", "serviceAccount:" + accounts.nodeEmail,
        "condition", Map.of("title", "distributions only", "expression", startsWith(objects + "dist/"))));
    s.resource("google_storage_bucket_iam_member", "controller_objects", Map.of("bucket", name,
        "role", "roles/storage.objectViewer", "member", "serviceAccount:" + accounts.controllerEmail,
        "condition", Map.of("title", "boot files only", "expression", startsWith(objects + "controller/")
            + " || resource.name == \"" + objects + s.config.infra().distribution() + "\"")));
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

  private static String startsWith(String prefix) {
    return "resource.name.startsWith(\"" + prefix + "\")";
  }
}
