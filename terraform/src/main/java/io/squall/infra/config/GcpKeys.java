package io.squall.infra.config;

import java.util.List;

/**
 * What the infrastructure reads of {@code squall.gcp.*}: the controller's own keys.
 *
 * @param project {@code project}
 * @param region {@code region}
 * @param zones {@code zones}
 * @param networkName the last part of {@code network}: {@code default} is used as it is, any other is made
 * @param subnetworkName the last part of {@code subnetwork}, or {@code CLUSTER-nodes}
 * @param sourceImage {@code source-image}: the node image of the instance templates
 * @param nodeAccountId the account id (part before the {@code @}) of {@code service-account-email},
 *     or {@code CLUSTER-node}: the nodes' service account to make
 */
public record GcpKeys(String project, String region, List<String> zones, String networkName, String subnetworkName,
    String sourceImage, String nodeAccountId) {
  public GcpKeys {
    zones = List.copyOf(zones);
  }

  /** Whether the network is the project's default one, used as it is, rather than made here. */
  public boolean defaultNetwork() {
    return networkName.equals("default");
  }
}
