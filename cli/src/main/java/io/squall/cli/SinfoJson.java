package io.squall.cli;

import io.squall.cli.service.NodeInfo;
import io.squall.cli.service.PartitionInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * {@code sinfo --json}: each line sinfo prints by default (a partition's nodes of one state) as
 * data_parser/v0.0.39's SINFO_DATA, with the fields Squall's nodes and partitions have. Node
 * states are Slurm's flag lists: a base state ({@code IDLE}, {@code MIXED}, {@code ALLOCATED},
 * {@code DOWN}) and flags ({@code DRAIN}, {@code CLOUD}, {@code POWERED_DOWN}, ...).
 */
final class SinfoJson {
  private SinfoJson() {}

  static Map<String, Object> row(SinfoRow r) {
    List<NodeInfo> nodes = r.nodes();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("node", Map.of("state", r.first() == null ? List.of() : state(r.first())));
    Map<String, Object> counts = new LinkedHashMap<>();
    counts.put("allocated", nodes.stream().filter(n -> base(n).equals("ALLOCATED") || base(n).equals("MIXED")).count());
    counts.put("idle", nodes.stream().filter(n -> base(n).equals("IDLE")).count());
    counts.put("other", nodes.stream()
        .filter(n -> !List.of("ALLOCATED", "MIXED", "IDLE").contains(base(n))).count());
    counts.put("total", nodes.size());
    counts.put("nodes", nodes.stream().map(NodeInfo::name).toList());
    m.put("nodes", counts);
    List<Integer> cpus = nodes.stream().map(NodeInfo::cpus).filter(Objects::nonNull).toList();
    if (!cpus.isEmpty()) {
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("total", cpus.stream().mapToLong(Integer::longValue).sum());
      c.put("minimum", cpus.stream().mapToInt(Integer::intValue).min().orElseThrow());
      c.put("maximum", cpus.stream().mapToInt(Integer::intValue).max().orElseThrow());
      m.put("cpus", c);
    }
    List<Long> memory = nodes.stream().map(NodeInfo::memoryMb).filter(Objects::nonNull).toList();
    if (!memory.isEmpty()) {
      Map<String, Object> mem = new LinkedHashMap<>();
      mem.put("minimum", memory.stream().mapToLong(Long::longValue).min().orElseThrow());
      mem.put("maximum", memory.stream().mapToLong(Long::longValue).max().orElseThrow());
      m.put("memory", mem);
    }
    TreeSet<String> features = new TreeSet<>();
    nodes.forEach(n -> features.addAll(n.features()));
    String featureList = String.join(",", features);
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("total", featureList);
    f.put("active", featureList);
    m.put("features", f);
    m.put("gres", Map.of("total", r.first() == null ? "" : gresOrEmpty(r.first())));
    String reason = r.first() == null || r.first().reason() == null ? "" : r.first().reason();
    m.put("reason", Map.of("description", reason));
    m.put("partition", partition(r.partition()));
    return m;
  }

  private static String gresOrEmpty(NodeInfo n) {
    String gres = SinfoColumns.gres(n);
    return gres.equals("(null)") ? "" : gres;
  }

  /** Slurm's node state flags for a Squall node state. */
  static List<String> state(NodeInfo n) {
    String s = n.state() == null ? "UNKNOWN" : n.state();
    return switch (s) {
      case "IDLE", "MIXED", "ALLOCATED", "DOWN" -> List.of(s);
      case "DRAINING" -> List.of(base(n), "DRAIN");
      case "CLOUD" -> List.of("IDLE", "CLOUD", "POWERED_DOWN");
      case "POWERING_UP" -> List.of("IDLE", "CLOUD", "POWERING_UP");
      case "POWERING_DOWN" -> List.of("IDLE", "POWERING_DOWN");
      default -> List.of(s);
    };
  }

  /** The base state: a draining node is allocated or mixed while its jobs run, idle once drained. */
  private static String base(NodeInfo n) {
    String s = n.state() == null ? "UNKNOWN" : n.state();
    if (!s.equals("DRAINING")) {
      return state(n).get(0);
    }
    int used = n.gpusAllocated() == null ? 0 : n.gpusAllocated();
    if (used == 0) {
      return "IDLE";
    }
    return n.gpus() != null && used < n.gpus() ? "MIXED" : "ALLOCATED";
  }

  private static Map<String, Object> partition(PartitionInfo p) {
    Map<String, Object> m = new LinkedHashMap<>();
    Map<String, Object> nodes = new LinkedHashMap<>();
    nodes.put("configured", p.nodes() == null ? "" : p.nodes());
    nodes.put("total", p.totalNodes() == null ? 0 : p.totalNodes());
    Map<String, Object> defaults = new LinkedHashMap<>();
    defaults.put("time", SlurmJson.number(p.defaultTimeMinutes()));
    Map<String, Object> maximums = new LinkedHashMap<>();
    maximums.put("nodes", SlurmJson.limit(p.maxNodes()));
    maximums.put("time", SlurmJson.limit(p.maxTimeMinutes()));
    m.put("defaults", defaults);
    m.put("maximums", maximums);
    m.put("name", p.name());
    m.put("nodes", nodes);
    m.put("priority", Map.of("tier", p.priorityTier() == null ? 0 : p.priorityTier()));
    return m;
  }
}
