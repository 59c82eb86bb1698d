package io.squall.infra.config;

import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import io.squall.core.provider.AgentBootstrap;
import io.squall.infra.InfraException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The controller's configuration file as the infrastructure needs it: the same keys with the
 * controller's meaning (README, Configuration), plus {@code squall.infra.*}. Everything is checked
 * here, before anything is synthesized, so bad input never leaves half an output behind.
 *
 * @param file the file read
 * @param cluster {@code squall.cluster-name}: prefix of every name made, and the {@code squall:cluster} tag
 * @param cloud the provider ({@code squall.provider} must name it)
 * @param apiPort {@code micronaut.server.port}: where agents and users reach the controller
 * @param agentPort where the controller reaches agents: the port the providers' user data starts them on
 * @param partitions every partition, in file order (their placement groups decided in name order, as the controller does)
 * @param infra {@code squall.infra.*}
 * @param aws {@code squall.aws.*} for AWS, else null
 * @param gcp {@code squall.gcp.*} for GCP, else null
 */
public record ClusterConfig(ConfigFile file, String cluster, Cloud cloud, int apiPort, int agentPort,
    List<Partition> partitions, InfraKeys infra, AwsKeys aws, GcpKeys gcp) {
  /** The controller's default API port ({@code SQUALL_PORT}). */
  static final int DEFAULT_API_PORT = 6820;

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,19}");
  private static final Pattern ACCOUNT_ID = Pattern.compile("[a-z][-a-z0-9]{4,28}[a-z0-9]");

  public ClusterConfig {
    partitions = List.copyOf(partitions);
  }

  /** Reads and checks {@code file} for {@code cloud}. */
  public static ClusterConfig read(ConfigFile file, Cloud cloud) throws InfraException {
    String provider = file.string("squall.provider", "local");
    if (!provider.equals(cloud.key())) {
      throw file.error("squall.provider", "is '" + provider + "', but infra synth was asked for --provider "
          + cloud.key() + ": the controller would not launch on " + cloud.key() + " with this file");
    }
    String cluster = file.string("squall.cluster-name", "squall");
    if (!NAME.matcher(cluster).matches()) {
      // It prefixes bucket, role, service account and placement group names: the strictest rules apply.
      throw file.error("squall.cluster-name", "'" + cluster + "' must be 1 to 20 of a-z, 0-9 and '-', starting"
          + " with a letter, to name cloud resources");
    }
    int apiPort = file.integer("micronaut.server.port", DEFAULT_API_PORT);
    // The providers' user data starts every agent on the node's network at this port.
    int agentPort = AgentBootstrap.AGENT_PORT;
    InfraKeys infra = new InfraKeys(file.strings("squall.infra.admin-cidrs"),
        file.string("squall.infra.network-cidr", "10.42.0.0/16"), file.string("squall.infra.checkpoint-bucket", null),
        file.string("squall.infra.distribution", "dist/squall-server.tar.gz"),
        file.string("squall.infra.controller.instance-type", null),
        file.string("squall.infra.database.instance-class", null));
    return switch (cloud) {
      case AWS -> {
        AwsKeys aws = aws(file, cluster);
        yield new ClusterConfig(file, cluster, cloud, apiPort, agentPort, partitions(file, aws.zones()), infra,
            aws, null);
      }
      case GCP -> {
        GcpKeys gcp = gcp(file, cluster);
        yield new ClusterConfig(file, cluster, cloud, apiPort, agentPort, partitions(file, gcp.zones()), infra,
            null, gcp);
      }
    };
  }

  /**
   * The {@code squall.controller-url} line of the controller's {@code server.env}, for its boot
   * script (whose {@code $ip} is the machine's private address, found at boot): the environment
   * wins over every configuration file, so an address the file gives itself (a name its TLS
   * certificate holds, a load balancer) is left to the file, and a controller serving TLS
   * ({@code squall.tls.cert}) is reached over https.
   */
  public String controllerUrlEnvironment() {
    if (given("squall.controller-url")) {
      return "# SQUALL_CONTROLLER_URL: squall.controller-url in squall.yml";
    }
    return "SQUALL_CONTROLLER_URL=" + (given("squall.tls.cert") ? "https" : "http") + "://$ip:" + apiPort;
  }

  /** Whether the file gives {@code key} a value; a placeholder without a default leaves it to the environment. */
  private boolean given(String key) {
    try {
      String value = file.string(key, null);
      return value != null && !value.isBlank();
    } catch (InfraException placeholderWithoutDefault) {
      return false;
    }
  }

  /** Every instance type some partition launches, each once, in file order. */
  public List<String> instanceTypes() {
    Set<String> types = new LinkedHashSet<>();
    partitions.forEach(p -> types.addAll(p.instanceTypes()));
    return List.copyOf(types);
  }

  /** The zones the nodes may run in: AWS's subnet zones, GCP's {@code zones}. */
  public List<String> zones() {
    return aws != null ? aws.zones() : gcp.zones();
  }

  private static AwsKeys aws(ConfigFile file, String cluster) throws InfraException {
    String region = file.string("squall.aws.region", "us-east-1");
    Map<String, String> subnets = file.stringMap("squall.aws.subnets");
    List<String> zones;
    if (!subnets.isEmpty()) {
      zones = List.copyOf(subnets.keySet());
    } else {
      Set<String> named = new LinkedHashSet<>();
      for (String p : file.names("squall.partitions")) {
        named.addAll(file.strings("squall.partitions." + p + ".zones"));
      }
      if (named.isEmpty()) {
        throw file.error("squall.aws.subnets", "missing: give the zones' existing subnets (zone: subnet-id), or name"
            + " zones in squall.partitions.NAME.zones so infra makes a VPC with a subnet per zone");
      }
      zones = List.copyOf(named);
    }
    if (zones.size() < 2) {
      // The state database's subnet group lives in the node subnets, and RDS wants two zones.
      throw file.error(subnets.isEmpty() ? "squall.partitions.*.zones" : "squall.aws.subnets", "only " + zones
          + ": RDS needs subnets in two zones for the controller's database; name a second zone");
    }
    for (String zone : zones) {
      if (!zone.startsWith(region)) {
        throw file.error(subnets.isEmpty() ? "squall.partitions.*.zones" : "squall.aws.subnets",
            "zone " + zone + " is not in squall.aws.region " + region);
      }
    }
    String imageId = file.required("squall.aws.image-id", "the node image (an AMI with the agent) the launch"
        + " templates start; infra does not read launch-template, it makes the templates itself");
    String queueUrl = file.string("squall.aws.interruption-queue-url", null);
    String queueName = queueUrl == null ? cluster + "-interruptions" : lastSegment(queueUrl);
    return new AwsKeys(region, subnets, zones, imageId, file.string("squall.aws.key-name", null),
        file.string("squall.aws.instance-profile", cluster + "-node"), queueName, efaInterfaces(file));
  }

  /** {@code squall.aws.efa-interfaces}, each a count of network cards, 0 or more, as the provider refuses any other. */
  private static Map<String, Integer> efaInterfaces(ConfigFile file) throws InfraException {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : file.stringMap("squall.aws.efa-interfaces").entrySet()) {
      int cards;
      try {
        cards = Integer.parseInt(e.getValue().trim());
      } catch (NumberFormatException notANumber) {
        cards = -1;
      }
      if (cards < 0) {
        throw file.error("squall.aws.efa-interfaces." + e.getKey(), "'" + e.getValue()
            + "' is not a count of network cards to give an EFA interface, 0 (no EFA) or more");
      }
      out.put(e.getKey(), cards);
    }
    return out;
  }

  private static GcpKeys gcp(ConfigFile file, String cluster) throws InfraException {
    String project = file.required("squall.gcp.project", "the GCP project everything is made in");
    String region = file.string("squall.gcp.region", "us-central1");
    List<String> zones = file.strings("squall.gcp.zones");
    if (zones.isEmpty()) {
      throw file.error("squall.gcp.zones", "missing: the zones nodes launch in, e.g. [" + region + "-a]");
    }
    for (String zone : zones) {
      if (!zone.startsWith(region + "-")) {
        throw file.error("squall.gcp.zones", "zone " + zone + " is not in squall.gcp.region " + region);
      }
    }
    String subnetwork = file.string("squall.gcp.subnetwork", null);
    String email = file.string("squall.gcp.service-account-email", null);
    String accountId = email == null ? cluster + "-node" : email.substring(0, email.indexOf('@') < 0 ? email.length()
        : email.indexOf('@'));
    if (!ACCOUNT_ID.matcher(accountId).matches()) {
      throw file.error("squall.gcp.service-account-email", "'" + accountId + "' is not a service account id (6 to 30"
          + " of a-z, 0-9 and '-', starting with a letter): infra makes the nodes' account under this name");
    }
    return new GcpKeys(project, region, zones, lastSegment(file.string("squall.gcp.network", "global/networks/default")),
        subnetwork == null ? cluster + "-nodes" : lastSegment(subnetwork),
        file.required("squall.gcp.source-image", "the node image (with the agent) the instance templates start"),
        accountId);
  }

  private static List<Partition> partitions(ConfigFile file, List<String> cloudZones) throws InfraException {
    List<String> names = file.names("squall.partitions");
    if (names.isEmpty()) {
      throw file.error("squall.partitions", "missing: no partition, so no nodes to make infrastructure for");
    }
    List<Partition> out = new ArrayList<>();
    Set<String> claimed = new HashSet<>();
    // The controller lays partitions out in name order: a node two partitions name is the first's.
    for (String name : new TreeSet<>(names)) {
      String key = "squall.partitions." + name;
      String hostlist = file.required(key + ".nodes", "the partition's nodes as a hostlist, e.g. gpu-[1-8]");
      List<String> nodes;
      try {
        nodes = Hostlist.expand(hostlist);
      } catch (HostlistException e) {
        throw file.error(key + ".nodes", e.getMessage());
      }
      List<String> types = file.strings(key + ".instance-types");
      if (types.isEmpty()) {
        // The controller would fall back to the provider's 8xH100 type; infrastructure is made
        // for what the file says, never for a default nobody chose.
        throw file.error(key + ".instance-types", "missing: name the partition's instance types, e.g. [p5.48xlarge]"
            + " or [a3-highgpu-8g]; infra makes a launch template or instance template for each");
      }
      List<String> zones = file.strings(key + ".zones");
      for (String zone : zones) {
        if (!cloudZones.contains(zone)) {
          throw file.error(key + ".zones", "zone " + zone + " is not one the provider is configured for " + cloudZones);
        }
      }
      String spot = file.string(key + ".spot", "spot-then-on-demand");
      CapacityUse capacity = CapacityUse.of(spot);
      if (capacity == null) {
        throw file.error(key + ".spot", "'" + spot + "' is not spot, on-demand or spot-then-on-demand");
      }
      List<String> groups = PlacementGroups.of(name, nodes, file.integer(key + ".placement-groups", 1), claimed);
      out.add(new Partition(name, nodes, groups, types, zones.isEmpty() ? cloudZones : zones, capacity));
    }
    out.sort(Comparator.comparing(p -> names.indexOf(p.name())));
    return out;
  }

  private static String lastSegment(String s) {
    String trimmed = s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    return trimmed.substring(trimmed.lastIndexOf('/') + 1);
  }
}
