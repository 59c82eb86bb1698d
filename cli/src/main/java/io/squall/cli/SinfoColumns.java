package io.squall.cli;

import io.squall.cli.format.NodeStates;
import io.squall.cli.format.SlurmTime;
import io.squall.cli.format.Table.Column;
import io.squall.core.hostlist.Hostlist;
import io.squall.cli.service.NodeInfo;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** sinfo's {@code -o} specifiers; node fields read the line's first node, as all of its nodes agree. */
final class SinfoColumns {
  /** The fields that summarize a line's nodes rather than telling them apart. */
  static final Set<String> COUNTING = Set.of("D", "N");

  private SinfoColumns() {}

  static Map<String, Column<SinfoRow>> of() {
    Map<String, Column<SinfoRow>> c = new LinkedHashMap<>();
    put(c, 'P', "PARTITION", r -> r.partition().name() + (r.partition().defaultPartition() ? "*" : ""));
    put(c, 'a', "AVAIL", r -> r.partition().state() == null ? "up" : r.partition().state().toLowerCase(Locale.ROOT));
    put(c, 'l', "TIMELIMIT", r -> r.partition().maxTimeMinutes() == null ? "infinite"
        : SlurmTime.compact(r.partition().maxTimeMinutes() * 60));
    put(c, 'D', "NODES", r -> Integer.toString(r.nodes().size()));
    put(c, 't', "STATE", r -> node(r, n -> NodeStates.shortName(n.state(), busy(n))));
    put(c, 'T', "STATE", r -> node(r, n -> NodeStates.longName(n.state(), busy(n))));
    put(c, 'N', "NODELIST", r -> Hostlist.compress(r.nodes().stream().map(NodeInfo::name).toList()));
    put(c, 'G', "GRES", r -> node(r, SinfoColumns::gres));
    put(c, 'c', "CPUS", r -> node(r, n -> n.cpus() == null ? "0" : n.cpus().toString()));
    put(c, 'm', "MEMORY", r -> node(r, n -> n.memoryMb() == null ? "1" : n.memoryMb().toString()));
    put(c, 'f', "AVAIL_FEATURES", r -> node(r, n -> n.features().isEmpty() ? "(null)" : String.join(",", n.features())));
    put(c, 'E', "REASON", r -> node(r, n -> n.reason() == null || n.reason().isBlank() ? "none" : n.reason()));
    return c;
  }

  /** Slurm's Gres string: {@code gpu:h100:8}, {@code gpu:8}, or {@code (null)} without GPUs. */
  static String gres(NodeInfo n) {
    if (n.gpus() == null || n.gpus() == 0) {
      return "(null)";
    }
    return "gpu:" + (n.gpuType() == null || n.gpuType().isBlank() ? "" : n.gpuType() + ":") + n.gpus();
  }

  /** Whether jobs hold some of the node's GPUs (a drained node has none left). */
  private static boolean busy(NodeInfo n) {
    return n.gpusAllocated() != null && n.gpusAllocated() > 0;
  }

  private static String node(SinfoRow r, Function<NodeInfo, String> value) {
    return r.first() == null ? "n/a" : value.apply(r.first());
  }

  private static void put(Map<String, Column<SinfoRow>> c, char letter, String header, Function<SinfoRow, String> v) {
    c.put(String.valueOf(letter), new Column<>(header, v));
  }
}
