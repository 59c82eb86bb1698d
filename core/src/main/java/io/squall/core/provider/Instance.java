package io.squall.core.provider;

import java.util.Objects;

/**
 * One machine a provider runs for this cluster, as read back from the provider (its tags or
 * labels carry the Squall fields), so the controller can reconcile after a crash.
 *
 * @param id the provider's id ({@code i-0abc...} on EC2, the instance name on GCE, the node name locally)
 * @param nodeName the Squall node it is, from its {@code squall:node} tag
 * @param launchToken the idempotency token of the launch that made it
 * @param offering the type, zone and capacity type it runs as (price as known at launch, may be 0)
 */
public record Instance(String id, String nodeName, String cluster, String partition, String placementGroup,
    String launchToken, Offering offering, InstanceState state) {
  public Instance {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(state, "state");
  }
}
