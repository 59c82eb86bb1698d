package io.squall.providers.gcp;

import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.StatusCode;
import com.google.cloud.compute.v1.InsertResourcePolicyRequest;
import com.google.cloud.compute.v1.Operation;
import com.google.cloud.compute.v1.ResourcePolicy;
import com.google.cloud.compute.v1.ResourcePolicyGroupPlacementPolicy;
import io.squall.core.provider.ProviderException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compact placement policies ({@code groupPlacementPolicy.collocation = COLLOCATED}), one per
 * cluster and placement group, created on first use; one that already exists is used as is.
 * Squall does not delete them (an empty policy costs nothing; instances may still use it).
 */
final class PlacementPolicies {
  private final GceClients clients;
  private final GceOperations operations;
  private final GcpSettings settings;

  /** Policies this provider made or found, so each is inserted once, not once per launch. */
  private final Set<String> made = ConcurrentHashMap.newKeySet();

  PlacementPolicies(GceClients clients, GceOperations operations, GcpSettings settings) {
    this.clients = clients;
    this.operations = operations;
    this.settings = settings;
  }

  /** The policy's name for a cluster's placement group, within GCE's naming rules. */
  static String name(String cluster, String placementGroup) {
    return GceNames.resourceName("squall", cluster + "-" + placementGroup);
  }

  /** Makes sure the compact policy exists and returns its name. */
  String ensureCompact(String cluster, String placementGroup) {
    String name = name(cluster, placementGroup);
    if (made.contains(name)) {
      return name; // made (or found) before: one insert per policy, not one per launch
    }
    String action = "create compact placement policy " + name;
    ResourcePolicy policy = ResourcePolicy.newBuilder()
        .setName(name)
        .setDescription("Squall placement group " + placementGroup + " of cluster " + cluster)
        .setGroupPlacementPolicy(ResourcePolicyGroupPlacementPolicy.newBuilder()
            .setCollocation(ResourcePolicyGroupPlacementPolicy.Collocation.COLLOCATED.name()))
        .build();
    Operation op;
    try {
      op = clients.resourcePolicies.insertCallable().call(InsertResourcePolicyRequest.newBuilder()
          .setProject(settings.project())
          .setRegion(settings.region())
          .setResourcePolicyResource(policy)
          .build());
    } catch (ApiException e) {
      if (alreadyExists(e)) {
        made.add(name);
        return name;
      }
      throw GceErrors.fromApi(action, e);
    }
    op = operations.awaitRegional(action, settings.region(), op);
    ProviderException failed = GceErrors.fromOperation(action, op);
    if (failed != null && !GceErrors.hasCode(op, "RESOURCE_ALREADY_EXISTS")) {
      throw failed;
    }
    made.add(name);
    return name;
  }

  private static boolean alreadyExists(ApiException e) {
    return e.getStatusCode().getCode() == StatusCode.Code.ALREADY_EXISTS || GceErrors.hasCode(e, "alreadyExists");
  }
}
