package io.squall.cli;

import io.squall.cli.format.LineTemplate;
import io.squall.cli.format.Table;
import io.squall.cli.service.Priorities;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sprio}: the factors of pending jobs' priorities, as sprio(1) prints them. Without
 * {@code -o} (or {@code SPRIO_FORMAT}) the columns are sprio's: job id and partition, the user
 * with {@code -u}, the priority and site factor, then each factor whose weight is not zero;
 * {@code -l} shows all of them, {@code -n} the factors themselves instead of weighted,
 * {@code -w} only the weights.
 */
final class SprioCommand extends ServiceCommand {
  static final String LONG_FORMAT = "%.15i %9r %.8u %.8o %.10Y %.10S %.10A %.10B %.10F %.10J %.10P %.10n %.10Q %.11N"
      + " %.20T";
  static final String LONG_NORMALIZED = "%.15i %9r %.8u %.8o %10y %10a %10b %10f %10j %10p %10n %10q %20t";

  SprioCommand(Invocation io) {
    super("sprio", io);
  }

  @Override
  List<Getopt.Option> options() {
    return List.of(
        Getopt.Option.value('j', "jobs"),
        Getopt.Option.value('u', "user"),
        Getopt.Option.value('p', "partition"),
        Getopt.Option.value('o', "format"),
        Getopt.Option.flag('h', "noheader"),
        Getopt.Option.flag('l', "long"),
        Getopt.Option.flag('n', "norm"),
        Getopt.Option.flag('w', "weights"));
  }

  @Override
  String usage() {
    return """
        Usage: sprio [OPTIONS]
          -j, --jobs=LIST        these pending jobs
          -u, --user=LIST        jobs of these users (adds the USER column)
          -p, --partition=LIST   jobs in these partitions
          -o, --format=FORMAT    e.g. "%.15i %9r %.10Y %.10A %.10F" (default: $SPRIO_FORMAT)
          -l, --long             every factor, with user, account and QOS
          -n, --norm             the factors in [0, 1] instead of weighted
          -w, --weights          the weights only
          -h, --noheader         no header line""";
  }

  @Override
  int execute(Getopt.Parsed args) {
    if (!args.operands().isEmpty()) {
      throw new UsageException("Unrecognized option: " + args.operands().get(0));
    }
    Map<String, String> query = new LinkedHashMap<>();
    List<String> jobs = JobIds.expand(args.values().getOrDefault("jobs", List.of()));
    if (jobs.size() == 1) {
      query.put("job", jobs.get(0));
    }
    if (args.has("user")) {
      query.put("user", String.join(",", args.list("user")));
    }
    if (args.has("partition")) {
      query.put("partition", String.join(",", args.list("partition")));
    }
    Priorities answer = client().priorities(query);
    Map<String, Table.Column<SprioColumns.Row>> columns = SprioColumns.of();
    LineTemplate template;
    try {
      template = LineTemplate.percent(format(args, answer.weights()), LineTemplate.letters(columns.keySet()));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    List<SprioColumns.Row> rows = new ArrayList<>();
    if (args.has("weights")) {
      rows.add(new SprioColumns.Row(null, answer.weights()));
    } else {
      for (Priorities.Line l : answer.jobs()) {
        if (jobs.isEmpty() || jobs.contains(l.jobId()) || l.jobIdRaw() != null
            && jobs.contains(l.jobIdRaw().toString())) {
          rows.add(new SprioColumns.Row(l, answer.weights()));
        }
      }
      if (args.has("jobs") && rows.isEmpty()) {
        io.out().println("Unable to find jobs matching user/id(s) specified");
        return 0;
      }
    }
    print(new Table<>(template, columns).lines(rows, !args.has("noheader"), false));
    return 0;
  }

  /** sprio's choice: {@code -o}, else {@code SPRIO_FORMAT}, else built from the weights that are not zero. */
  private String format(Getopt.Parsed args, Priorities.Weights w) {
    if (args.has("format")) {
      return args.last("format");
    }
    String env = io.env().get("SPRIO_FORMAT");
    if (env != null && !env.isBlank()) {
      return env;
    }
    boolean norm = args.has("norm");
    if (args.has("long")) {
      return norm ? LONG_NORMALIZED : LONG_FORMAT;
    }
    StringBuilder f = new StringBuilder("%.15i %9r");
    if (args.has("user")) {
      f.append(" %.8u");
    }
    f.append(norm ? " %10y" : " %.10Y %.10S");
    factor(f, w.age(), norm, 'a');
    factor(f, w.fairShare(), norm, 'f');
    factor(f, w.jobSize(), norm, 'j');
    factor(f, w.partition(), norm, 'p');
    factor(f, w.qos(), norm, 'q');
    return f.toString();
  }

  private static void factor(StringBuilder f, long weight, boolean norm, char letter) {
    if (weight != 0) {
      f.append(norm ? " %10" + letter : " %.10" + Character.toUpperCase(letter));
    }
  }
}
