package io.squall.cli;

import io.squall.cli.format.LineTemplate;
import io.squall.cli.format.SlurmTime;
import io.squall.cli.format.Table;
import io.squall.cli.format.Table.Column;
import io.squall.cli.format.TimeFormat;
import io.squall.cli.service.NodeInfo;
import io.squall.cli.service.PartitionInfo;
import io.squall.cli.service.ReservationInfo;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code sinfo}: partitions and their nodes, one line per group of nodes that print alike
 * (the same state, and the same GRES, CPUs ... when those are shown), or one per node with {@code -N}.
 * Without a format the options pick sinfo's own ({@code -s}, {@code -l}, {@code -N}, {@code -R},
 * then {@code SINFO_FORMAT}); {@code -t}, {@code -n}, {@code -d}, {@code -r} and {@code -R} list only
 * some nodes, and a partition none of whose nodes is listed is left out, as sinfo does when it
 * filters.
 */
final class SinfoCommand extends ServiceCommand {
  static final String DEFAULT_FORMAT = "%#P %.5a %.10l %.6D %.6t %N";
  static final String LONG_FORMAT = "%#P %.5a %.10l %.10s %.4r %.8h %.10g %.6D %.11T %.11i %N";
  static final String SUMMARY_FORMAT = "%#P %.5a %.10l %.16F %N";
  static final String NODE_FORMAT = "%#N %.6D %#P %6t";
  static final String NODE_LONG_FORMAT = "%#N %.6D %#P %.11T %.4c %.8z %.6m %.8d %.6w %.8f %20E";
  static final String REASONS_FORMAT = "%20E %9u %19H %N";
  static final String REASONS_LONG_FORMAT = "%20E %12U %19H %6t %N";

  SinfoCommand(Invocation io) {
    super("sinfo", io);
  }

  @Override
  List<Getopt.Option> options() {
    return List.of(
        Getopt.Option.flag('N', "Node"),
        Getopt.Option.value('p', "partition"),
        Getopt.Option.flag('h', "noheader"),
        Getopt.Option.value('o', "format"),
        Getopt.Option.flag('a', "all"),
        Getopt.Option.flag('l', "long"),
        Getopt.Option.flag('s', "summarize"),
        Getopt.Option.flag('R', "list-reasons"),
        Getopt.Option.value('t', "states"),
        Getopt.Option.value('n', "nodes"),
        Getopt.Option.flag('d', "dead"),
        Getopt.Option.flag('r', "responding"),
        Getopt.Option.flag('e', "exact"),
        Getopt.Option.value('i', "iterate"),
        Getopt.Option.value('S', "sort"),
        Getopt.Option.flag('v', "verbose"),
        Getopt.Option.flag('\0', "hide"),
        Getopt.Option.flag('\0', "local"),
        Getopt.Option.flag('\0', "noconvert"),
        Getopt.Option.flag('T', "reservation"),
        Getopt.Option.flag('\0', "json"));
  }

  @Override
  String usage() {
    return """
        Usage: sinfo [OPTIONS]
          -N, --Node             one line per node
          -l, --long             more about partitions (job size, reservation) or nodes (S:C:T, reason)
          -s, --summarize        one line per partition: nodes allocated/idle/other/total
          -R, --list-reasons     why nodes are down, drained or draining, who said so and when
          -p, --partition=LIST   only these partitions
          -n, --nodes=HOSTLIST   only these nodes
          -t, --states=LIST      only nodes in these states (idle, mix, alloc, drain, down, cloud, all, ...)
          -d, --dead             only nodes that stopped responding (down)
          -r, --responding       only nodes that respond
          -o, --format=FORMAT    e.g. "%P %a %l %D %T %N %G %c %m"
          -S, --sort=FIELDS      e.g. "-P,N": format letters, - for descending
          -i, --iterate=SECONDS  print again every SECONDS, until interrupted
          -h, --noheader         no header line
          -e, --exact, -v, --hide, --local, --noconvert: accepted (nodes are always grouped exactly)
          -T, --reservation      advanced reservations: name, state, start, end, duration, nodes
              --json             partitions and node states as Slurm 23.02's sinfo --json prints them""";
  }

  /** {@code sinfo -T}: one line per reservation, in Slurm's columns. */
  private int reservations(boolean header) {
    String line = "%-9s  %8s  %19s  %19s  %11s  %s";
    if (header) {
      io.out().println(String.format(line, "RESV_NAME", "STATE", "START_TIME", "END_TIME", "DURATION", "NODELIST"));
    }
    TimeFormat time = timeFormat();
    for (ReservationInfo r : client().reservations()) {
      io.out().println(String.format(line, r.name(), r.state(), time.format(r.startTime()), time.format(r.endTime()),
          SlurmTime.full(r.durationSeconds() == null ? 0 : r.durationSeconds()), r.nodes()));
    }
    return 0;
  }

  @Override
  int execute(Getopt.Parsed args) {
    if (!args.operands().isEmpty()) {
      throw new UsageException("Unrecognized option: " + args.operands().get(0));
    }
    if (args.has("reservation")) {
      return reservations(!args.has("noheader"));
    }
    Duration every = args.has("iterate") ? Iterate.period(args.last("iterate")) : null;
    if (args.has("all") && args.has("partition")) {
      throw new UsageException("Conflicting options, -a and -p, specified. Please choose one or the other.");
    }
    NodeFilter filter = NodeFilter.of(args);
    boolean json = args.has("json");
    String format = json ? DEFAULT_FORMAT : format(args);
    TimeFormat time = timeFormat();
    Map<String, String> inReservation = new HashMap<>();
    Map<String, Column<SinfoRow>> columns = SinfoColumns.of(inReservation::get, time);
    LineTemplate template;
    try {
      // --json describes the lines sinfo prints by default, whatever the format, as sinfo does.
      template = LineTemplate.percent(format, LineTemplate.letters(columns.keySet()));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    Comparator<SinfoRow> order = FieldSort.parse(args.last("sort"), columns);
    Set<String> wanted = Set.copyOf(args.list("partition"));
    do {
      List<PartitionInfo> partitions = client().partitions().stream()
          .filter(p -> wanted.isEmpty() || wanted.contains(p.name()))
          .toList();
      List<NodeInfo> nodes = client().nodes().stream().filter(filter::includes).toList();
      inReservation.clear();
      if (template.fields().stream().anyMatch(f -> f.key().equals("i"))) {
        inReservation.putAll(activeReservations());
      }
      if (json) {
        List<SinfoRow> rows = grouped(partitions, nodes, template, columns, filter.any());
        io.out().println(Json.pretty(SlurmJson.answer(commandLine(), "sinfo", rows.stream().map(SinfoJson::row).toList())));
        return 0;
      }
      boolean perNode = args.has("Node") && !args.has("summarize");
      List<SinfoRow> rows = new ArrayList<>(perNode ? perNode(partitions, nodes)
          : grouped(partitions, nodes, template, columns, filter.any()));
      if (order != null) {
        rows.sort(order);
      }
      if (Iterate.dated(args, every, "long")) {
        io.out().println(Iterate.heading(io));
      }
      print(new Table<>(template, columns).lines(rows, !args.has("noheader"), false));
    } while (every != null && Iterate.pause(io, every));
    return 0;
  }

  /** The format sinfo would use: {@code -o}, else its own for the options given, else {@code SINFO_FORMAT}. */
  private String format(Getopt.Parsed args) {
    boolean longer = args.has("long");
    if (args.has("format")) {
      return args.last("format");
    }
    if (args.has("summarize")) {
      return SUMMARY_FORMAT;
    }
    if (args.has("Node")) {
      return longer ? NODE_LONG_FORMAT : NODE_FORMAT;
    }
    if (args.has("list-reasons")) {
      return longer ? REASONS_LONG_FORMAT : REASONS_FORMAT;
    }
    String env = io.env().get("SINFO_FORMAT");
    if (env != null && !env.isBlank()) {
      return env;
    }
    return longer ? LONG_FORMAT : DEFAULT_FORMAT;
  }

  /** Each node in an advanced reservation that is active now, with the reservation's name. */
  private Map<String, String> activeReservations() {
    Map<String, String> in = new HashMap<>();
    for (ReservationInfo r : client().reservations()) {
      if (!"ACTIVE".equalsIgnoreCase(r.state()) || r.nodes() == null || r.nodes().isBlank()) {
        continue;
      }
      try {
        Hostlist.expand(r.nodes()).forEach(n -> in.putIfAbsent(n, r.name()));
      } catch (HostlistException e) {
        // A reservation whose node list cannot be read marks no node.
      }
    }
    return in;
  }

  /** Which nodes are listed: {@code -n}, {@code -t}, {@code -d}, {@code -r} and {@code -R}'s states. */
  private record NodeFilter(NodeNames names, SinfoStates states, boolean dead, boolean responding) {
    static NodeFilter of(Getopt.Parsed args) {
      NodeNames names = NodeNames.of(args, "nodes", value -> "'" + value + "' invalid entry for --nodes");
      SinfoStates states = args.has("states") ? SinfoStates.parse(String.join(",", args.values().get("states")))
          : args.has("list-reasons") ? SinfoStates.forReasons() : null;
      return new NodeFilter(names, states, args.has("dead"), args.has("responding"));
    }

    /** Whether some nodes are left out: sinfo then prints no line for a partition with none listed. */
    boolean any() {
      return names != null || states != null || dead || responding;
    }

    boolean includes(NodeInfo n) {
      boolean down = "DOWN".equalsIgnoreCase(n.state());
      return (names == null || names.contains(n.name())) && (states == null || states.includes(n))
          && (!dead || down) && (!responding || !down);
    }
  }

  private static List<SinfoRow> perNode(List<PartitionInfo> partitions, List<NodeInfo> nodes) {
    Map<PartitionInfo, Set<String>> members = new LinkedHashMap<>();
    partitions.forEach(p -> members.put(p, new HashSet<>(members(p, nodes).stream().map(NodeInfo::name).toList())));
    List<SinfoRow> rows = new ArrayList<>();
    for (NodeInfo n : nodes) {
      members.forEach((p, names) -> {
        if (names.contains(n.name())) {
          rows.add(new SinfoRow(p, List.of(n)));
        }
      });
    }
    return rows;
  }

  /**
   * Nodes of each partition grouped by what the template prints about them, in first-seen order.
   * A template that prints nothing of a partition lists each node once, in the first partition
   * that has it (sinfo merges such lines across partitions). With {@code filtered}, a partition
   * without a listed node gets no line.
   */
  private static List<SinfoRow> grouped(List<PartitionInfo> partitions, List<NodeInfo> nodes, LineTemplate template,
      Map<String, Column<SinfoRow>> columns, boolean filtered) {
    boolean byPartition = template.fields().stream().anyMatch(f -> SinfoColumns.OF_PARTITION.contains(f.key()));
    List<SinfoRow> rows = new ArrayList<>();
    Map<List<String>, List<NodeInfo>> merged = new LinkedHashMap<>();
    Map<List<String>, PartitionInfo> mergedPartition = new HashMap<>();
    Set<String> seen = new HashSet<>();
    for (PartitionInfo p : partitions) {
      Map<List<String>, List<NodeInfo>> groups = byPartition ? new LinkedHashMap<>() : merged;
      for (NodeInfo n : members(p, nodes)) {
        if (!byPartition && !seen.add(n.name())) {
          continue;
        }
        SinfoRow single = new SinfoRow(p, List.of(n));
        List<String> key = new ArrayList<>();
        for (LineTemplate.Field f : template.fields()) {
          if (!SinfoColumns.COUNTING.contains(f.key())) {
            key.add(columns.get(f.key()).value().apply(single));
          }
        }
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
        if (!byPartition) {
          mergedPartition.putIfAbsent(key, p);
        }
      }
      if (byPartition) {
        if (groups.isEmpty() && !filtered) {
          rows.add(new SinfoRow(p, List.of()));
        }
        groups.values().forEach(group -> rows.add(new SinfoRow(p, group)));
      }
    }
    merged.forEach((key, group) -> rows.add(new SinfoRow(mergedPartition.get(key), group)));
    return rows;
  }

  /**
   * The partition's nodes in the service's node order. A node belongs when either side says so
   * (the node's partition list or the partition's hostlist).
   */
  private static List<NodeInfo> members(PartitionInfo p, List<NodeInfo> nodes) {
    Set<String> listed = new HashSet<>();
    if (p.nodes() != null && !p.nodes().isBlank()) {
      try {
        listed.addAll(Hostlist.expand(p.nodes()));
      } catch (HostlistException e) {
        // An unreadable hostlist leaves the nodes' own partition lists to decide.
      }
    }
    return nodes.stream().filter(n -> n.partitions().contains(p.name()) || listed.contains(n.name())).toList();
  }
}
