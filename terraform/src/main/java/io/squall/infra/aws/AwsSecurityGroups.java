package io.squall.infra.aws;

import com.hashicorp.cdktf.TerraformResource;
import io.squall.infra.tf.Elements;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who may talk to whom: agents reach the controller's API, the controller reaches the agents'
 * port, nodes reach each other on everything (EFA needs all traffic in and out within its
 * security group, self-referencing), the controller reaches the database, and the admin CIDRs
 * reach the API. Every group may go out anywhere (package mirrors, the buckets, the cloud APIs).
 */
final class AwsSecurityGroups {
  final String controller;
  final String nodes;
  final String database;

  AwsSecurityGroups(AwsScope s, AwsNetwork network) {
    controller = group(s, network, "controller", "Squall controller: its API for agents and admins");
    nodes = group(s, network, "nodes", "Squall nodes: the agent for the controller, all traffic among nodes (EFA)");
    database = group(s, network, "database", "Squall state database: PostgreSQL for the controller");
    int api = s.config.apiPort();
    int agent = s.config.agentPort();
    ingress(s, "controller_api_from_nodes", controller, tcp(api, "agents report to the controller"), "referenced_security_group_id", nodes);
    List<String> admins = s.config.infra().adminCidrs();
    for (int i = 0; i < admins.size(); i++) {
      ingress(s, "controller_api_from_admin_" + i, controller, tcp(api, "squall.infra.admin-cidrs"), "cidr_ipv4", admins.get(i));
    }
    ingress(s, "nodes_agent_from_controller", nodes, tcp(agent, "the controller starts and signals jobs"), "referenced_security_group_id", controller);
    ingress(s, "nodes_all_from_nodes", nodes, all("EFA, NCCL and srun among nodes"), "referenced_security_group_id", nodes);
    ingress(s, "database_from_controller", database, tcp(5432, "the controller's state"), "referenced_security_group_id", controller);
    // EFA also needs an outbound rule to its own group; "anywhere" below does not count for it.
    s.resource("aws_vpc_security_group_egress_rule", "nodes_all_to_nodes", rule(nodes,
        all("EFA among nodes"), "referenced_security_group_id", nodes));
    for (String g : List.of("controller", "nodes")) {
      s.resource("aws_vpc_security_group_egress_rule", g + "_out", rule(g.equals("nodes") ? nodes : controller,
          all("out to mirrors, buckets and cloud APIs"), "cidr_ipv4", "0.0.0.0/0"));
    }
  }

  private static String group(AwsScope s, AwsNetwork network, String name, String description) {
    TerraformResource g = s.resource("aws_security_group", name, Map.of("name", s.named(name),
        "description", description, "vpc_id", network.vpcId));
    return Elements.ref(g, "id");
  }

  private static void ingress(AwsScope s, String name, String group, Map<String, Object> what, String from, String source) {
    s.resource("aws_vpc_security_group_ingress_rule", name, rule(group, what, from, source));
  }

  private static Map<String, Object> rule(String group, Map<String, Object> what, String from, String source) {
    Map<String, Object> m = new LinkedHashMap<>(what);
    m.put("security_group_id", group);
    m.put(from, source);
    return m;
  }

  private static Map<String, Object> tcp(int port, String why) {
    return Map.of("ip_protocol", "tcp", "from_port", port, "to_port", port, "description", why);
  }

  private static Map<String, Object> all(String why) {
    return Map.of("ip_protocol", "-1", "description", why);
  }
}
