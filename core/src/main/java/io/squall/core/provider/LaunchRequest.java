package io.squall.core.provider;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Start {@code nodes.size()} nodes of one offering in one placement group, at least
 * {@code minCount} of them or none. Gangs ask with {@code minCount == nodes.size()}, so a gang
 * is never billed half-launched.
 *
 * @param cluster the cluster tag every instance carries ({@code squall:cluster}); reconciliation
 *     lists by it
 * @param nodes the nodes, in order; each instance is tagged with its node's name and its agent is
 *     started with that node's token
 * @param placementGroup the provider's placement group (AWS cluster placement group, GCE compact
 *     placement policy) the nodes must share; null for none
 * @param tags extra tags to put on every instance
 * @param idempotencyToken the same token for a retry of the same launch: a provider that already
 *     did it returns the instances it made instead of making more (EC2 ClientToken, GCE requestId)
 */
public record LaunchRequest(String cluster, String partition, List<NodeLaunch> nodes, int minCount,
    Offering offering, String placementGroup, Map<String, String> tags, String idempotencyToken) {
  public LaunchRequest {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(offering, "offering");
    Objects.requireNonNull(idempotencyToken, "idempotencyToken");
    nodes = List.copyOf(nodes);
    tags = Map.copyOf(tags);
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("launch " + idempotencyToken + ": no nodes");
    }
    if (minCount < 1 || minCount > nodes.size()) {
      throw new IllegalArgumentException("launch " + idempotencyToken + ": minCount " + minCount
          + " must be 1.." + nodes.size());
    }
  }

  public int count() {
    return nodes.size();
  }
}
