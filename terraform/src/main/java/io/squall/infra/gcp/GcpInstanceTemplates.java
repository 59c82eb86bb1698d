package io.squall.infra.gcp;

import io.squall.infra.config.Partition;
import io.squall.infra.tf.Elements;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An instance template per machine type and capacity type the partitions launch
 * ({@code CLUSTER-TYPE-spot} and {@code -standard}), as the provider's bulkInsert builds its
 * instances: the node image on a 200 GB pd-balanced boot disk, the node service account, SPOT
 * that is deleted when preempted, and host maintenance that terminates (GPUs cannot live-migrate).
 */
final class GcpInstanceTemplates {
  /**
   * The GPUs built into accelerator-optimized machine types, stated so the template says what it
   * carries. A type not listed is given no accelerator block.
   */
  static final Map<String, Map<String, Object>> ACCELERATORS = Map.of(
      "a3-highgpu-8g", Map.of("type", "nvidia-h100-80gb", "count", 8),
      "a3-megagpu-8g", Map.of("type", "nvidia-h100-mega-80gb", "count", 8),
      "a2-highgpu-8g", Map.of("type", "nvidia-tesla-a100", "count", 8),
      "a2-ultragpu-8g", Map.of("type", "nvidia-a100-80gb", "count", 8));

  GcpInstanceTemplates(GcpScope s, GcpNetwork network, GcpServiceAccounts accounts) {
    Set<String> made = new LinkedHashSet<>();
    for (Partition p : s.config.partitions()) {
      for (String type : p.instanceTypes()) {
        if (p.capacity().spot() && made.add(type + "/spot")) {
          template(s, network, accounts, type, true);
        }
        if (p.capacity().onDemand() && made.add(type + "/standard")) {
          template(s, network, accounts, type, false);
        }
      }
    }
  }

  private static void template(GcpScope s, GcpNetwork network, GcpServiceAccounts accounts, String type,
      boolean spot) {
    String name = s.named(type + (spot ? "-spot" : "-standard"));
    Map<String, Object> t = new LinkedHashMap<>();
    t.put("name", name);
    t.put("machine_type", type);
    t.put("disk", List.of(Map.of("source_image", s.config.gcp().sourceImage(), "boot", true, "auto_delete", true,
        "disk_size_gb", 200, "disk_type", "pd-balanced")));
    Map<String, Object> nic = new LinkedHashMap<>();
    nic.put("network", network.network);
    if (network.subnetwork != null) {
      nic.put("subnetwork", network.subnetwork);
    }
    t.put("network_interface", List.of(nic));
    t.put("service_account", Map.of("email", accounts.nodeEmail,
        "scopes", List.of("https://www.googleapis.com/auth/cloud-platform")));
    Map<String, Object> scheduling = new LinkedHashMap<>();
    scheduling.put("provisioning_model", spot ? "SPOT" : "STANDARD");
    scheduling.put("preemptible", spot);
    scheduling.put("automatic_restart", !spot);
    scheduling.put("on_host_maintenance", "TERMINATE");
    if (spot) {
      scheduling.put("instance_termination_action", "DELETE");
    }
    t.put("scheduling", scheduling);
    Map<String, Object> gpus = ACCELERATORS.get(type);
    if (gpus != null) {
      t.put("guest_accelerator", List.of(gpus));
    }
    t.put("labels", Map.of("squall-cluster", s.config.cluster()));
    s.resource("google_compute_instance_template", Elements.name(name), t);
  }
}
