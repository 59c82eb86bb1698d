package io.squall.infra.aws;

import com.hashicorp.cdktf.TerraformDataSource;
import com.hashicorp.cdktf.TerraformResource;
import io.squall.infra.tf.Elements;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where nodes and the controller live. With {@code squall.aws.subnets} the subnets exist and are
 * only looked up (their VPC is the first one's). Without, a VPC is made: a public subnet for the
 * controller and a NAT gateway in the first zone, and a private subnet per zone for the nodes:
 * an EFA node has several network interfaces and so no public address, and reaches out through NAT.
 */
final class AwsNetwork {
  /** The nodes' subnet ids by zone. */
  final Map<String, String> nodeSubnets = new LinkedHashMap<>();
  final String vpcId;
  final String controllerSubnet;
  /** Whether the controller's subnet is public (made here): it gets a public address then. */
  final boolean controllerPublic;

  AwsNetwork(AwsScope s) {
    List<String> zones = s.config.zones();
    if (s.config.aws().existingSubnets()) {
      TerraformDataSource first = null;
      for (Map.Entry<String, String> e : s.config.aws().subnets().entrySet()) {
        TerraformDataSource subnet = s.data("aws_subnet", Elements.name("nodes_" + e.getKey()), Map.of("id", e.getValue()));
        first = first == null ? subnet : first;
        nodeSubnets.put(e.getKey(), Elements.ref(subnet, "id"));
      }
      vpcId = Elements.ref(first, "vpc_id");
      controllerSubnet = nodeSubnets.get(zones.get(0));
      controllerPublic = false;
      return;
    }
    TerraformResource vpc = s.resource("aws_vpc", "squall", Map.of("cidr_block", s.config.infra().networkCidr(),
        "enable_dns_support", true, "enable_dns_hostnames", true, "tags", Map.of("Name", s.config.cluster())));
    vpcId = Elements.ref(vpc, "id");
    String cidr = Elements.address(vpc) + ".cidr_block";
    TerraformResource gateway = s.resource("aws_internet_gateway", "squall", Map.of("vpc_id", vpcId));
    TerraformResource pub = s.resource("aws_subnet", "public", Map.of("vpc_id", vpcId,
        "cidr_block", subnetCidr(cidr, 0), "availability_zone", zones.get(0), "map_public_ip_on_launch", true,
        "tags", Map.of("Name", s.named("public"))));
    TerraformResource publicRoutes = s.resource("aws_route_table", "public", Map.of("vpc_id", vpcId));
    s.resource("aws_route", "public_default", Map.of("route_table_id", Elements.ref(publicRoutes, "id"),
        "destination_cidr_block", "0.0.0.0/0", "gateway_id", Elements.ref(gateway, "id")));
    s.resource("aws_route_table_association", "public", Map.of("subnet_id", Elements.ref(pub, "id"),
        "route_table_id", Elements.ref(publicRoutes, "id")));
    TerraformResource natAddress = s.resource("aws_eip", "nat", Map.of("domain", "vpc"));
    TerraformResource nat = s.resource("aws_nat_gateway", "squall", Map.of("allocation_id",
        Elements.ref(natAddress, "id"), "subnet_id", Elements.ref(pub, "id")));
    TerraformResource nodeRoutes = s.resource("aws_route_table", "nodes", Map.of("vpc_id", vpcId));
    s.resource("aws_route", "nodes_default", Map.of("route_table_id", Elements.ref(nodeRoutes, "id"),
        "destination_cidr_block", "0.0.0.0/0", "nat_gateway_id", Elements.ref(nat, "id")));
    for (int i = 0; i < zones.size(); i++) {
      String zone = zones.get(i);
      String name = Elements.name("nodes_" + zone);
      TerraformResource subnet = s.resource("aws_subnet", name, Map.of("vpc_id", vpcId,
          "cidr_block", subnetCidr(cidr, i + 1), "availability_zone", zone,
          "tags", Map.of("Name", s.named("nodes-" + zone))));
      s.resource("aws_route_table_association", name, Map.of("subnet_id", Elements.ref(subnet, "id"),
          "route_table_id", Elements.ref(nodeRoutes, "id")));
      nodeSubnets.put(zone, Elements.ref(subnet, "id"));
    }
    controllerSubnet = Elements.ref(pub, "id");
    controllerPublic = true;
  }

  /** The {@code index}th /20 of a /16 (16 of them: the public one and up to 15 zones). */
  private static String subnetCidr(String vpcCidr, int index) {
    return "${cidrsubnet(" + vpcCidr + ", 4, " + index + ")}";
  }
}
