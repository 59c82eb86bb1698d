package io.squall.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.infra.config.Cloud;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The roles infra synthesizes grant exactly what the provider plugins call, read from the
 * plugins' bytecode ({@link ProviderCalls}), and no wildcard. A provider that starts calling
 * something new fails here until the policy grants it; a grant no call needs fails too.
 */
class IamCoverageTest {
  private static final ProviderCalls AWS_CALLS = ProviderCalls.in("io.squall.providers.aws");
  private static final ProviderCalls GCP_CALLS = ProviderCalls.in("io.squall.providers.gcp");
  /** Predefined roles infra binds to the controller on one resource, and the permission it binds them for. */
  private static final Map<String, String> PREDEFINED = Map.of("roles/iam.serviceAccountUser", "iam.serviceAccounts.actAs");

  @Test
  void everyCloudCallOfTheProvidersHasAKnownPermission() {
    assertThat(AWS_CALLS.unmapped).as("AWS SDK calls with no IAM action known: map them in ProviderCalls").isEmpty();
    assertThat(GCP_CALLS.unmapped).as("Compute calls with no permission known: map them in ProviderCalls").isEmpty();
    // The scan finds the calls the providers are known to make: it cannot pass by finding nothing.
    assertThat(AWS_CALLS.needed).containsKeys("ec2:RunInstances", "ec2:TerminateInstances", "sqs:ReceiveMessage",
        "iam:PassRole");
    assertThat(GCP_CALLS.needed).containsKeys("compute.instances.create", "compute.instances.delete",
        "compute.resourcePolicies.create", "iam.serviceAccounts.actAs");
  }

  @Test
  void theAwsControllerRoleGrantsExactlyTheEc2SqsAndIamActionsTheProviderCalls() {
    Synthesized aws = Synthesized.example("aws.yml", Cloud.AWS);
    JsonNode statements = aws.data("aws_iam_policy_document", "controller").path("statement");
    Set<String> granted = new TreeSet<>();
    statements.forEach(s -> s.path("actions").forEach(a -> granted.add(a.asText())));
    Set<String> needed = AWS_CALLS.needed.keySet();
    assertThat(missing(AWS_CALLS, granted)).as("actions providers/aws calls that ControllerPolicy does not grant")
        .isEmpty();
    Set<String> cloudGrants = new TreeSet<>(granted);
    cloudGrants.removeIf(a -> !(a.startsWith("ec2:") || a.startsWith("sqs:") || a.startsWith("iam:")));
    assertThat(cloudGrants).as("EC2, SQS and IAM actions granted that no provider call needs").isEqualTo(needed);
  }

  @Test
  void theGcpControllerIsGrantedExactlyTheComputePermissionsTheProviderCalls() {
    Synthesized gcp = Synthesized.example("gcp.yml", Cloud.GCP);
    Set<String> custom = new TreeSet<>(Synthesized.texts(gcp.resource("google_project_iam_custom_role", "controller")
        .path("permissions")));
    assertThat(gcp.resource("google_project_iam_member", "controller").path("member").asText())
        .isEqualTo("serviceAccount:${google_service_account.controller.email}");
    Set<String> granted = new TreeSet<>(custom);
    for (JsonNode binding : gcp.resources("google_service_account_iam_member")) {
      if (binding.path("member").asText().equals("serviceAccount:${google_service_account.controller.email}")) {
        // Bound on the node account alone: the controller may act as it and as no other.
        assertThat(binding.path("service_account_id").asText()).isEqualTo("${google_service_account.node.name}");
        granted.add(PREDEFINED.get(binding.path("role").asText()));
      }
    }
    assertThat(missing(GCP_CALLS, granted)).as("permissions providers/gcp needs that are not granted").isEmpty();
    assertThat(custom).as("the custom role holds exactly the Compute permissions the provider needs")
        .isEqualTo(GCP_CALLS.starting("compute."));
  }

  /** Each needed permission that is not granted, with where the provider needs it. */
  private static List<String> missing(ProviderCalls calls, Set<String> granted) {
    List<String> missing = new ArrayList<>();
    calls.needed.forEach((permission, where) -> {
      if (!granted.contains(permission)) {
        missing.add(permission + " (needed by " + where + ")");
      }
    });
    return missing;
  }

  @Test
  void noPolicyOrRoleGrantsAWildcardActionAndOnlyDescribeCallsRunOnEveryResource() {
    Synthesized aws = Synthesized.example("aws.yml", Cloud.AWS);
    for (JsonNode doc : aws.json().path("data").path("aws_iam_policy_document")) {
      for (JsonNode statement : doc.path("statement")) {
        List<String> actions = Synthesized.texts(statement.path("actions"));
        assertThat(actions).as(statement.path("sid").asText()).noneMatch(a -> a.contains("*"));
        if (Synthesized.texts(statement.path("resources")).contains("*")) {
          // EC2's Describe calls take no resource-level permission; nothing else may be on "*".
          assertThat(actions).as(statement.path("sid").asText()).allMatch(a -> a.startsWith("ec2:Describe"));
        }
      }
    }
    Synthesized gcp = Synthesized.example("gcp.yml", Cloud.GCP);
    assertThat(Synthesized.texts(gcp.resource("google_project_iam_custom_role", "controller").path("permissions")))
        .noneMatch(p -> p.contains("*"));
    for (String type : List.of("google_project_iam_member", "google_service_account_iam_member",
        "google_storage_bucket_iam_member", "google_secret_manager_secret_iam_member")) {
      for (JsonNode binding : gcp.resources(type)) {
        // Broad predefined roles are what a custom role is here to avoid.
        assertThat(binding.path("role").asText()).as(type).isNotIn("roles/owner", "roles/editor",
            "roles/compute.admin", "roles/compute.instanceAdmin.v1", "roles/storage.admin");
      }
    }
  }
}
