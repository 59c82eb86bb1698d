package io.squall.infra.gcp;

import com.hashicorp.cdktf.TerraformResource;
import io.squall.infra.tf.Elements;
import java.util.Map;

/**
 * The controller's and the nodes' service accounts. The controller gets the custom role of
 * {@link ComputePermissions} on the project, and {@code roles/iam.serviceAccountUser} on the node
 * account alone (it launches nodes as that account, and as no other). The nodes get nothing on
 * the project; the bucket and secrets grant what they need on themselves.
 */
final class GcpServiceAccounts {
  final String controllerEmail;
  final String nodeEmail;

  GcpServiceAccounts(GcpScope s) {
    String project = s.config.gcp().project();
    TerraformResource controller = s.resource("google_service_account", "controller", Map.of(
        "account_id", s.named("server"), "display_name", "Squall controller"));
    TerraformResource node = s.resource("google_service_account", "node", Map.of(
        "account_id", s.config.gcp().nodeAccountId(), "display_name", "Squall nodes"));
    controllerEmail = Elements.ref(controller, "email");
    nodeEmail = Elements.ref(node, "email");
    TerraformResource role = s.resource("google_project_iam_custom_role", "controller", Map.of(
        "project", project,
        "role_id", s.config.cluster().replace('-', '_') + "_controller",
        "title", "Squall controller (" + s.config.cluster() + ")",
        "description", "What Squall's GCP provider calls: launch, list and delete nodes, compact placement policies",
        "permissions", ComputePermissions.CONTROLLER));
    s.resource("google_project_iam_member", "controller", Map.of("project", project,
        "role", Elements.ref(role, "id"), "member", "serviceAccount:" + controllerEmail));
    s.resource("google_service_account_iam_member", "controller_acts_as_node", Map.of(
        "service_account_id", Elements.ref(node, "name"), "role", "roles/iam.serviceAccountUser",
        "member", "serviceAccount:" + controllerEmail));
  }
}
