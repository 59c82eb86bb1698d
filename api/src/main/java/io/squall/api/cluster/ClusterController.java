package io.squall.api.cluster;

import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.RequestAttribute;
import io.squall.api.agents.NodeLiveness;
import io.squall.api.auth.Caller;
import io.squall.api.config.ClusterLayout;
import io.squall.api.state.NodeOccupancy;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.JobKey;
import io.squall.core.model.Node;
import io.squall.core.model.Account;
import io.squall.core.model.Partition;
import io.squall.core.model.Qos;
import io.squall.core.money.PriceCaps;
import io.squall.core.provision.CapacityPolicy;
import io.squall.core.provision.PurchaseRules;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** {@code /v1/nodes} and {@code /v1/partitions}, as sinfo and scontrol show them; {@code /v1/qos} and {@code /v1/accounts} with finance's rules. */
@Controller("/v1")
@Tag(name = "cluster")
public final class ClusterController {
  private final StateWriter writer;
  private final ClusterLayout layout;
  private final NodeLiveness liveness;

  public ClusterController(StateWriter writer, ClusterLayout layout, NodeLiveness liveness) {
    this.writer = writer;
    this.layout = layout;
    this.liveness = liveness;
  }

  @Operation(summary = "Nodes with their state, GPUs and jobs")
  @Get("/nodes")
  public Map<String, Object> nodes(@RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
    NodeOccupancy occupancy = NodeOccupancy.of(writer.state());
    List<Map<String, Object>> out = new ArrayList<>();
    for (NodeStatus n : writer.state().nodes()) {
      Node node = n.node();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", n.name());
      m.put("state", occupancy.state(n));
      m.put("reason", n.reason());
      m.put("reason_user", n.reasonUser());
      m.put("reason_time", n.reasonTime() == null ? null : n.reasonTime().toString());
      m.put("partitions", layout.partitionsOf(n.name()));
      m.put("gpus", node.gpus());
      m.put("gpus_allocated", occupancy.gpusUsed(n.name()));
      m.put("gpu_type", node.gpuType());
      m.put("cpus", node.cpus());
      m.put("memory_mb", node.memoryMb());
      m.put("features", List.copyOf(new TreeSet<>(node.features())));
      m.put("placement_group", node.placementGroup());
      // As squeue shows only one's own jobs (PrivateData=jobs), a node shows only the caller's.
      m.put("jobs", occupancy.jobsOn(n.name()).stream().filter(key -> maySee(caller, key)).toList());
      Instant heard = liveness.lastHeard(n);
      m.put("last_heartbeat", heard == null ? null : heard.toString());
      out.add(m);
    }
    return Map.of("nodes", out);
  }

  private boolean maySee(Caller caller, String jobKey) {
    StoredJob j = writer.state().job(JobKey.parse(jobKey));
    return j != null && caller.mayControl(j.job().user());
  }

  @Operation(summary = "Partitions with their limits and node counts by state")
  @Get("/partitions")
  public Map<String, Object> partitions(@RequestAttribute(Caller.ATTRIBUTE) Caller caller) {
    NodeOccupancy occupancy = NodeOccupancy.of(writer.state());
    List<Map<String, Object>> out = new ArrayList<>();
    for (Partition p : layout.partitions()) {
      Map<String, Integer> byState = new TreeMap<>();
      int gpus = 0;
      for (String name : p.nodes()) {
        NodeStatus n = writer.state().node(name);
        if (n != null) {
          byState.merge(occupancy.state(n), 1, Integer::sum);
          gpus += n.node().gpus();
        }
      }
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", p.name());
      m.put("default", p.isDefault());
      m.put("nodes", Hostlist.compress(p.nodes()));
      m.put("total_nodes", p.nodes().size());
      m.put("nodes_by_state", byState);
      m.put("total_gpus", gpus);
      m.put("max_time_minutes", p.maxTimeMinutes());
      m.put("default_time_minutes", p.defaultTimeMinutes());
      m.put("max_nodes", p.maxNodes());
      m.put("priority_tier", p.priorityTier());
      CapacityPolicy policy = layout.policies().get(p.name());
      if (policy != null) {
        m.put("capacity", policy.spot().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        m.put("price_caps", caps(policy.caps()));
        m.put("max_spot_price_per_node_hour", policy.maxSpotPricePerHour());
      }
      m.put("changeover_seconds", layout.changeover(p.name()).toSeconds());
      m.put("state", "UP");
      out.add(m);
    }
    return Map.of("partitions", out);
  }

  @Operation(summary = "QOS with their priority, the capacity their jobs' nodes are bought as, and their price caps")
  @Get("/qos")
  public Map<String, Object> qos() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Qos q : new TreeMap<>(layout.qos()).values()) {
      PurchaseRules.QosRule rule = layout.purchaseRules().qosRule(q.name());
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", q.name());
      m.put("priority", q.priority());
      m.put("capacity", rule == null || rule.capacity() == null ? null : rule.capacity().configName());
      m.put("price_caps", caps(rule == null ? PriceCaps.NONE : rule.caps()));
      out.add(m);
    }
    return Map.of("qos", out);
  }

  @Operation(summary = "Accounts with their parent, fair-share shares and price caps (their own with their parents')")
  @Get("/accounts")
  public Map<String, Object> accounts() {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Account a : layout.accounts()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", a.name());
      m.put("parent", a.parent());
      m.put("shares", a.shares());
      m.put("price_caps", caps(layout.purchaseRules().accountCaps(a.name())));
      out.add(m);
    }
    return Map.of("accounts", out);
  }

  static Map<String, Object> caps(PriceCaps caps) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("spot_usd_per_gpu_hour", caps.spotUsdPerGpuHour());
    m.put("on_demand_usd_per_gpu_hour", caps.onDemandUsdPerGpuHour());
    return m;
  }
}
