package io.squall.providers.gcp;

import com.google.cloud.compute.v1.Items;
import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.Offering;
import java.util.HashMap;
import java.util.Map;

/**
 * A GCE instance read back as a Squall {@link Instance}: its name is both id and node name, the
 * Squall fields come from its metadata (exact) or else its labels (sanitized), the offering from
 * its machine type, zone and provisioning model, the state from its status.
 */
final class GceInstances {
  private GceInstances() {}

  static Instance toInstance(com.google.cloud.compute.v1.Instance gce, GcpSettings settings) {
    Map<String, String> metadata = new HashMap<>();
    for (Items item : gce.getMetadata().getItemsList()) {
      if (!item.getKey().equals(GceLabels.STARTUP_SCRIPT)) {
        metadata.put(item.getKey(), item.getValue());
      }
    }
    Map<String, String> labels = gce.getLabelsMap();
    String type = GceNames.lastSegment(gce.getMachineType());
    String zone = GceNames.lastSegment(gce.getZone());
    CapacityType capacity = capacityType(gce);
    MachinePrice price = settings.price(type);
    Offering offering = new Offering(type, zone, capacity,
        capacity == CapacityType.SPOT ? price.spot() : price.onDemand(), Availability.AVAILABLE);
    return new Instance(gce.getName(), gce.getName(),
        field(GceLabels.CLUSTER, metadata, labels), field(GceLabels.PARTITION, metadata, labels),
        field(GceLabels.PLACEMENT_GROUP, metadata, labels), field(GceLabels.LAUNCH, metadata, labels),
        offering, state(gce.getStatus()));
  }

  /** SPOT (or the older preemptible) is spot; STANDARD and anything else on-demand. */
  static CapacityType capacityType(com.google.cloud.compute.v1.Instance gce) {
    boolean spot = gce.getScheduling().getProvisioningModel().equals("SPOT") || gce.getScheduling().getPreemptible();
    return spot ? CapacityType.SPOT : CapacityType.ON_DEMAND;
  }

  /**
   * GCE's statuses folded: PROVISIONING, STAGING → PENDING; RUNNING (and REPAIRING) → RUNNING;
   * STOPPING, SUSPENDING, SUSPENDED, TERMINATED (GCE's "stopped", still billing its disks) → STOPPING.
   * A deleted instance is not listed at all.
   */
  static InstanceState state(String status) {
    switch (status) {
      case "RUNNING":
      case "REPAIRING":
        return InstanceState.RUNNING;
      case "STOPPING":
      case "PENDING_STOP":
      case "SUSPENDING":
      case "SUSPENDED":
      case "TERMINATED":
        return InstanceState.STOPPING;
      default:
        return InstanceState.PENDING;
    }
  }

  private static String field(String key, Map<String, String> metadata, Map<String, String> labels) {
    String exact = metadata.get(key);
    return exact != null ? exact : labels.get(key);
  }
}
