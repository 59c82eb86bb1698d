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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code sinfo}: partitions and their nodes, one line per group of nodes that print alike
 * (the same state, and the same GRES, CPUs ... when those are shown), or one per node with {@code -N}.
 */
final class SinfoCommand extends ServiceCommand {
  static final String DEFAULT_FORMAT = "%#P %.5a %.10l %.6D %.6t %N";
  static final String NODE_FORMAT = "%#N %.6D %#P %6t";

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
        Getopt.Option.flag('T', "reservation"),
        Getopt.Option.flag('\0', "json"));
  }

  @Override
  String usage() {
    return """
        Usage: sinfo [OPTIONS]
          -N, --Node             one line per node
          -p, --partition=LIST   only these partitions
          -o, --format=FORMAT    e.g. "%P %a %l %D %T %N %G %c %m"
          -h, --noheader         no header line
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
    boolean perNode = args.has("Node");
    Map<String, Column<SinfoRow>> columns = SinfoColumns.of();
    LineTemplate template;
    boolean json = args.has("json");
    try {
      // --json describes the lines sinfo prints by default, whatever the format, as sinfo does.
      template = LineTemplate.percent(args.has("format") && !json ? args.last("format")
          : perNode && !json ? NODE_FORMAT : DEFAULT_FORMAT, LineTemplate.letters(columns.keySet()));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    Set<String> wanted = Set.copyOf(args.list("partition"));
    List<PartitionInfo> partitions = client().partitions().stream()
        .filter(p -> wanted.isEmpty() || wanted.contains(p.name()))
        .toList();
    List<NodeInfo> nodes = client().nodes();
    if (json) {
      List<SinfoRow> rows = grouped(partitions, nodes, template, columns);
      io.out().println(Json.pretty(SlurmJson.answer(commandLine(), "sinfo", rows.stream().map(SinfoJson::row).toList())));
      return 0;
    }
    List<SinfoRow> rows = perNode ? perNode(partitions, nodes) : grouped(partitions, nodes, template, columns);
    print(new Table<>(template, columns).lines(rows, !args.has("noheader"), false));
    return 0;
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

  /** Nodes of each partition grouped by what the template prints about them, in first-seen order. */
  private static List<SinfoRow> grouped(List<PartitionInfo> partitions, List<NodeInfo> nodes, LineTemplate template,
      Map<String, Column<SinfoRow>> columns) {
    List<SinfoRow> rows = new ArrayList<>();
    for (PartitionInfo p : partitions) {
      Map<List<String>, List<NodeInfo>> groups = new LinkedHashMap<>();
      for (NodeInfo n : members(p, nodes)) {
        SinfoRow single = new SinfoRow(p, List.of(n));
        List<String> key = new ArrayList<>();
        for (LineTemplate.Field f : template.fields()) {
          if (!SinfoColumns.COUNTING.contains(f.key())) {
            key.add(columns.get(f.key()).value().apply(single));
          }
        }
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
      }
      if (groups.isEmpty()) {
        rows.add(new SinfoRow(p, List.of()));
      }
      groups.values().forEach(group -> rows.add(new SinfoRow(p, group)));
    }
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
