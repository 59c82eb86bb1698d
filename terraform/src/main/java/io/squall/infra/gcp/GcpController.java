package io.squall.infra.gcp;

import io.squall.infra.ControllerBoot;
import com.hashicorp.cdktf.TerraformResource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The controller's machine: Debian 12 with an external address (the API is open only to
 * {@code squall.infra.admin-cidrs} and the nodes), shielded boot, OS Login, and a startup script
 * ({@code controller-startup.sh}) that fetches the distribution and configuration from the bucket,
 * reads its secrets and starts {@code squall-server}.
 */
final class GcpController {
  static final String DEFAULT_TYPE = "e2-standard-4";

  final TerraformResource instance;

  GcpController(GcpScope s, GcpNetwork network, GcpServiceAccounts accounts, GcpBucket bucket,
      GcpStateDatabase database, String agentTokenSecret) {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("bucket", bucket.name);
    values.put("distribution", s.config.infra().distribution());
    values.put("config", bucket.config);
    values.put("infra_config", bucket.infraConfig);
    values.put("db_host", database.address);
    values.put("db_secret", database.passwordSecret);
    values.put("agent_token_secret", agentTokenSecret);
    values.put("controller_url", s.config.controllerUrlEnvironment());
    Map<String, Object> nic = new LinkedHashMap<>();
    nic.put("network", network.network);
    if (network.subnetwork != null) {
      nic.put("subnetwork", network.subnetwork);
    }
    nic.put("access_config", List.of(Map.of()));
    String type = s.config.infra().controllerType();
    Map<String, Object> attributes = new LinkedHashMap<>();
    attributes.put("name", s.named("controller"));
    attributes.put("machine_type", type != null ? type : DEFAULT_TYPE);
    attributes.put("zone", s.config.gcp().zones().get(0));
    attributes.put("boot_disk", Map.of("initialize_params", Map.of("image", "debian-cloud/debian-12", "size", 30)));
    attributes.put("network_interface", List.of(nic));
    attributes.put("service_account", Map.of("email", accounts.controllerEmail,
        "scopes", List.of("https://www.googleapis.com/auth/cloud-platform")));
    attributes.put("shielded_instance_config", Map.of("enable_secure_boot", true));
    attributes.put("metadata", Map.of("enable-oslogin", "TRUE",
        "startup-script", ControllerBoot.script(GcpController.class, "controller-startup.sh", values)));
    instance = s.resource("google_compute_instance", "controller", attributes);
  }
}
