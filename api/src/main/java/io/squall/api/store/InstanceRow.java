package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;
import java.util.List;

/**
 * The instance a node runs on, as its launch returned it, and where it sits in the provider's
 * network once the provider has said ({@code networkNodes}: comma-separated, root first).
 */
@MappedEntity("instances")
public record InstanceRow(@Id String nodeName, String instanceId, String launchToken, String instanceType, String zone,
    String capacityType, double pricePerHour, Instant created, @Nullable String networkNodes) {

  /** The network nodes above the instance, root first; empty while unknown. */
  public List<String> networkPath() {
    return networkNodes == null ? List.of() : List.of(networkNodes.split(","));
  }

  public InstanceRow withNetworkPath(List<String> path) {
    return new InstanceRow(nodeName, instanceId, launchToken, instanceType, zone, capacityType, pricePerHour, created,
        String.join(",", path));
  }
}
