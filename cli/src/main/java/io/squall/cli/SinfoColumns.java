package io.squall.cli;

import io.squall.cli.format.NodeStates;
import io.squall.cli.format.SlurmTime;
import io.squall.cli.format.Table.Column;
import io.squall.cli.format.TimeFormat;
import io.squall.core.hostlist.Hostlist;
import io.squall.cli.service.NodeInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * sinfo's {@code -o} specifiers; node fields read the line's first node, as all of its nodes agree.
 * What Squall does not model prints Slurm's value for a node configured without it: {@code %r}
 * (RootOnly) no, {@code %h} (OverSubscribe) NO, {@code %g} (AllowGroups) all, {@code %d} (TmpDisk)
 * 0, {@code %w} (Weight) 1, and {@code %z} S:C:T with the CPUs as sockets of one core and one
 * thread, as slurmctld infers them from {@code CPUs=} alone.
 */
final class SinfoColumns {
  /** The fields that summarize a line's nodes rather than telling them apart. */
  static final Set<String> COUNTING = Set.of("D", "N", "F", "A");
  /** The fields that belong to a partition: without any of them, a node is listed once whatever its partitions. */
  static final Set<String> OF_PARTITION = Set.of("P", "R", "a", "l", "L", "s", "r", "h", "g");

  private SinfoColumns() {}

  /**
   * @param reservationOf the active advanced reservation a node is in ({@code %i}), or null
   * @param time how moments print ({@code %H}, {@code SLURM_TIME_FORMAT})
   */
  static Map<String, Column<SinfoRow>> of(Function<String, String> reservationOf, TimeFormat time) {
    Map<String, Column<SinfoRow>> c = new LinkedHashMap<>();
    put(c, 'P', "PARTITION", r -> r.partition().name() + (r.partition().defaultPartition() ? "*" : ""));
    put(c, 'R', "PARTITION", r -> r.partition().name());
    put(c, 'a', "AVAIL", r -> r.partition().state() == null ? "up" : r.partition().state().toLowerCase(Locale.ROOT));
    put(c, 'l', "TIMELIMIT", r -> minutes(r.partition().maxTimeMinutes()));
    put(c, 'L', "DEFAULTTIME", r -> r.partition().defaultTimeMinutes() == null ? "n/a"
        : minutes(r.partition().defaultTimeMinutes()));
    put(c, 's', "JOB_SIZE", r -> "1-" + (r.partition().maxNodes() == null ? "infinite" : r.partition().maxNodes()));
    put(c, 'r', "ROOT", r -> "no");
    put(c, 'h', "OVERSUBSCRIBE", r -> "NO");
    put(c, 'g', "GROUPS", r -> "all");
    put(c, 'D', "NODES", r -> Integer.toString(r.nodes().size()));
    put(c, 'F', "NODES(A/I/O/T)", r -> {
      int[] n = counts(r);
      return n[0] + "/" + n[1] + "/" + n[2] + "/" + r.nodes().size();
    });
    put(c, 'A', "NODES(A/I)", r -> {
      int[] n = counts(r);
      return n[0] + "/" + n[1];
    });
    put(c, 't', "STATE", r -> node(r, n -> NodeStates.shortName(n.state(), busy(n))));
    put(c, 'T', "STATE", r -> node(r, n -> NodeStates.longName(n.state(), busy(n))));
    put(c, 'N', "NODELIST", r -> Hostlist.compress(r.nodes().stream().map(NodeInfo::name).toList()));
    put(c, 'G', "GRES", r -> node(r, SinfoColumns::gres));
    put(c, 'c', "CPUS", r -> node(r, n -> n.cpus() == null ? "0" : n.cpus().toString()));
    put(c, 'z', "S:C:T", r -> node(r, n -> (n.cpus() == null ? "0" : n.cpus().toString()) + ":1:1"));
    put(c, 'm', "MEMORY", r -> node(r, n -> n.memoryMb() == null ? "1" : n.memoryMb().toString()));
    put(c, 'd', "TMP_DISK", r -> "0");
    put(c, 'w', "WEIGHT", r -> "1");
    put(c, 'f', "AVAIL_FEATURES", r -> node(r, n -> n.features().isEmpty() ? "(null)" : String.join(",", n.features())));
    put(c, 'i', "RESERVATION", r -> node(r, n -> {
      String name = reservationOf.apply(n.name());
      return name == null ? "" : name;
    }));
    put(c, 'E', "REASON", r -> node(r, n -> n.reason() == null || n.reason().isBlank() ? "none" : n.reason()));
    // Slurm's %U adds the uid in brackets; Squall's users are names only.
    Function<SinfoRow, String> reasonUser = r -> node(r, n -> n.reasonUser() == null ? "Unknown" : n.reasonUser());
    put(c, 'u', "USER", reasonUser);
    put(c, 'U', "USER", reasonUser);
    put(c, 'H', "TIMESTAMP", r -> node(r, n -> time.format(n.reasonTime(), "Unknown")));
    return c;
  }

  /** A partition's time limit as sinfo prints it. */
  private static String minutes(Long minutes) {
    return minutes == null ? "infinite" : SlurmTime.compact(minutes * 60);
  }

  /**
   * The line's nodes allocated (some GPUs in use, draining ones with jobs left among them), idle
   * (powered-down cloud nodes too) and other (down, drained), as sinfo's {@code %F} counts them.
   */
  private static int[] counts(SinfoRow r) {
    int[] n = new int[3];
    for (NodeInfo node : r.nodes()) {
      List<String> states = SinfoStates.statesOf(node);
      if (states.contains("mixed") || states.contains("allocated")) {
        n[0]++;
      } else if (states.contains("down") || states.contains("drained") || states.contains("unknown")) {
        n[2]++;
      } else {
        n[1]++;
      }
    }
    return n;
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
