package io.squall.infra.gcp;

import com.hashicorp.cdktf.TerraformResource;
import io.squall.infra.tf.Elements;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The VPC network and firewall. {@code squall.gcp.network} {@code default} is the project's own
 * network, used as it is; any other name is made here with one subnetwork in the region. Nodes
 * get no external address (bulkInsert asks for none), so a Cloud NAT lets them out. Firewall
 * rules go by service account, because the provider puts no network tags on instances.
 */
final class GcpNetwork {
  /** The network's id ({@code projects/P/global/networks/N}). */
  final String network;
  /** The subnetwork's id, or null for the default network's own subnetwork in the region. */
  final String subnetwork;
  /** As the controller's {@code squall.gcp.network} / {@code subnetwork} keys want them. */
  final String networkKey;
  final String subnetworkKey;

  GcpNetwork(GcpScope s, GcpServiceAccounts accounts) {
    String region = s.config.gcp().region();
    String project = s.config.gcp().project();
    if (s.config.gcp().defaultNetwork()) {
      network = "projects/" + project + "/global/networks/default";
      subnetwork = null;
      networkKey = "global/networks/default";
      subnetworkKey = null;
    } else {
      TerraformResource net = s.resource("google_compute_network", "squall", Map.of(
          "name", s.config.gcp().networkName(), "auto_create_subnetworks", false));
      network = Elements.ref(net, "id");
      TerraformResource sub = s.resource("google_compute_subnetwork", "nodes", Map.of(
          "name", s.config.gcp().subnetworkName(), "region", region, "network", network,
          "ip_cidr_range", s.config.infra().networkCidr(), "private_ip_google_access", true));
      subnetwork = Elements.ref(sub, "id");
      networkKey = "global/networks/" + s.config.gcp().networkName();
      subnetworkKey = "regions/" + region + "/subnetworks/" + s.config.gcp().subnetworkName();
    }
    TerraformResource router = s.resource("google_compute_router", "squall", Map.of(
        "name", s.named("router"), "region", region, "network", network));
    s.resource("google_compute_router_nat", "squall", Map.of("name", s.named("nat"), "region", region,
        "router", Elements.ref(router, "name"), "nat_ip_allocate_option", "AUTO_ONLY",
        "source_subnetwork_ip_ranges_to_nat", "ALL_SUBNETWORKS_ALL_IP_RANGES"));
    String controller = accounts.controllerEmail;
    String node = accounts.nodeEmail;
    firewall(s, "api-from-nodes", tcp(s.config.apiPort()), "source_service_accounts", List.of(node), controller);
    if (!s.config.infra().adminCidrs().isEmpty()) {
      firewall(s, "api-from-admins", tcp(s.config.apiPort()), "source_ranges", s.config.infra().adminCidrs(),
          controller);
    }
    firewall(s, "agent-from-controller", tcp(s.config.agentPort()), "source_service_accounts", List.of(controller),
        node);
    firewall(s, "nodes-internal", Map.of("protocol", "all"), "source_service_accounts", List.of(node), node);
  }

  private void firewall(GcpScope s, String name, Map<String, Object> allow, String from, List<String> sources,
      String target) {
    Map<String, Object> rule = new LinkedHashMap<>();
    rule.put("name", s.named(name));
    rule.put("network", network);
    rule.put("direction", "INGRESS");
    rule.put("allow", List.of(allow));
    rule.put(from, sources);
    rule.put("target_service_accounts", List.of(target));
    s.resource("google_compute_firewall", Elements.name(name), rule);
  }

  private static Map<String, Object> tcp(int port) {
    return Map.of("protocol", "tcp", "ports", List.of(Integer.toString(port)));
  }
}
