package io.squall.infra.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the infrastructure reads of {@code squall.aws.*}: the controller's own keys.
 *
 * @param region {@code region}
 * @param subnets {@code subnets}, zone to subnet id: existing subnets to use; empty: make a VPC with one per zone
 * @param zones the zones of {@code subnets}, or when there are none, every zone a partition names
 * @param imageId {@code image-id}: the node image of the launch templates
 * @param keyName {@code key-name}, null for none
 * @param instanceProfile {@code instance-profile}: the name of the node profile to make
 * @param queueName the last part of {@code interruption-queue-url}, or {@code CLUSTER-interruptions}
 * @param efaInterfaces {@code efa-interfaces}: network cards given an EFA interface, by instance
 *     type, over the built-in table the launch templates and the provider share
 */
public record AwsKeys(String region, Map<String, String> subnets, List<String> zones, String imageId, String keyName,
    String instanceProfile, String queueName, Map<String, Integer> efaInterfaces) {
  public AwsKeys {
    efaInterfaces = Map.copyOf(efaInterfaces);
    // In file order: the first zone's subnet holds the controller and names the VPC.
    subnets = Collections.unmodifiableMap(new LinkedHashMap<>(subnets));
    zones = List.copyOf(zones);
  }

  /** Whether the subnets exist already (given by id) rather than being made here. */
  public boolean existingSubnets() {
    return !subnets.isEmpty();
  }
}
