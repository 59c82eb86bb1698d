package io.squall.cli;

import io.squall.cli.format.JobStates;
import io.squall.cli.format.LineTemplate;
import io.squall.cli.format.LinesBehind;
import io.squall.cli.format.Table;
import io.squall.cli.service.JobInfo;
import io.squall.cli.service.JobQuery;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code squeue}: the queue, filtered on the service, printed through a Slurm format. */
final class SqueueCommand extends ServiceCommand {
  static final String DEFAULT_FORMAT = "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R";
  static final String LONG_FORMAT = "%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R";
  static final String START_FORMAT = "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R";

  SqueueCommand(Invocation io) {
    super("squeue", io);
  }

  @Override
  List<Getopt.Option> options() {
    return List.of(
        Getopt.Option.value('u', "user"),
        Getopt.Option.value('p', "partition"),
        Getopt.Option.value('t', "states"),
        Getopt.Option.value('j', "jobs"),
        Getopt.Option.value('A', "account"),
        Getopt.Option.value('n', "name"),
        Getopt.Option.value('o', "format"),
        Getopt.Option.value('O', "Format"),
        Getopt.Option.flag('h', "noheader"),
        Getopt.Option.flag('l', "long"),
        Getopt.Option.flag('a', "all"),
        Getopt.Option.value('w', "nodelist"),
        Getopt.Option.value('q', "qos"),
        Getopt.Option.value('R', "reservation"),
        Getopt.Option.flag('\0', "start"),
        Getopt.Option.flag('r', "array"),
        Getopt.Option.value('S', "sort"),
        Getopt.Option.value('i', "iterate"),
        Getopt.Option.flag('v', "verbose"),
        Getopt.Option.flag('\0', "hide"),
        Getopt.Option.flag('\0', "local"),
        Getopt.Option.flag('\0', "noconvert"),
        Getopt.Option.flag('\0', "json"),
        Getopt.Option.flag('\0', "me"));
  }

  @Override
  String usage() {
    return """
        Usage: squeue [OPTIONS]
          -u, --user=LIST        jobs of these users            --me   my jobs
          -A, --account=LIST     jobs of these accounts
          -p, --partition=LIST   jobs in these partitions
          -t, --states=LIST      states: PD,R,CG,CD,F,CA,TO,PR,NF or names, or all
          -j, --jobs=LIST        these jobs (any state)
          -n, --name=LIST        jobs with these names
          -q, --qos=LIST         jobs of these QOS
          -R, --reservation=NAME jobs in this advanced reservation
          -w, --nodelist=HOSTS   jobs on these nodes
              --start            pending jobs, soonest expected start first, with that start
          -r, --array            one line per array task, pending ones too
          -S, --sort=FIELDS      e.g. "-t,i": format letters, - for descending
          -i, --iterate=SECONDS  print again every SECONDS, until interrupted
          -o, --format=FORMAT    e.g. "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R" (default: $SQUEUE_FORMAT)
          -O, --Format=FIELDS    e.g. "jobid:10,name:30,state" (default: $SQUEUE_FORMAT2)
          -l, --long             show state and time limit
          -h, --noheader         no header line
              --json             the jobs as Slurm 23.02's squeue --json prints them""";
  }

  @Override
  int execute(Getopt.Parsed args) {
    if (!args.operands().isEmpty()) {
      throw new UsageException("Unrecognized option: " + args.operands().get(0));
    }
    List<String> jobIds = JobIds.expand(args.values().getOrDefault("jobs", List.of()));
    // Like Slurm: unfinished jobs by default, any state when jobs are named, all with -t all;
    // --start lists pending jobs.
    List<String> states = states(args, "states", args.has("jobs") ? List.of()
        : args.has("start") ? List.of("PENDING") : JobStates.ACTIVE);
    JobQuery query = new JobQuery(states, users(args), args.list("account"), args.list("partition"), args.list("name"),
        jobIds);
    JobFilter filter = JobFilter.of(args);
    Duration every = args.has("iterate") ? Iterate.period(args.last("iterate")) : null;
    if (args.has("json")) {
      // Formatting options do not apply to --json, as in squeue; the filters do (Slurm 23.11 and later).
      // It prints most fields, so it asks for all of them.
      List<JobInfo> jobs = client().jobs(query).stream().filter(filter::keeps).toList();
      io.out().println(Json.pretty(SlurmJson.answer(commandLine(), "jobs", jobs.stream().map(SqueueJson::job).toList())));
      return 0;
    }
    Map<String, SqueueColumns.Spec> columns = SqueueColumns.of(timeFormat());
    LineTemplate template;
    try {
      template = LineTemplate.percent(format(args), LineTemplate.letters(columns.keySet()));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    // Only what the format prints: at 100,000 jobs every field is 61 MB to build, send and read.
    Set<String> fields = new LinkedHashSet<>(SqueueColumns.fieldsRead(columns, template));
    fields.addAll(filter.fieldsRead());
    Table<JobInfo> table = new Table<>(template, SqueueColumns.columns(columns));
    Comparator<JobInfo> order = FieldSort.parse(args.last("sort"), SqueueColumns.columns(columns));
    if (order != null) {
      fields.addAll(SqueueColumns.fieldsRead(columns,
          LineTemplate.percent(sortLetters(args.last("sort")), LineTemplate.letters(columns.keySet()))));
    } else if (args.has("start")) {
      // Soonest expected start first, jobs without one last: by the moment, whatever SLURM_TIME_FORMAT prints.
      order = Comparator.comparing(SqueueColumns::start, Comparator.nullsLast(Comparator.naturalOrder()));
      fields.addAll(columns.get("S").fields());
    }
    boolean whole = table.fitted() || order != null || filter.any() || args.has("array");
    do {
      if (Iterate.dated(args, every, "long")) {
        io.out().println(Iterate.heading(io));
      }
      if (whole) {
        List<JobInfo> jobs = new ArrayList<>();
        for (JobInfo j : client().jobs(query, fields)) {
          if (filter.keeps(j)) {
            jobs.addAll(args.has("array") ? JobFilter.tasks(j) : List.of(j));
          }
        }
        if (order != null) {
          jobs.sort(order);
        }
        print(table.lines(jobs, !args.has("noheader"), false));
      } else {
        // Each job's line is rendered as the job is read (100,000 jobs held at once cost 0.25 s in
        // garbage collection), on a thread of its own, while the next jobs are read.
        List<String> lines;
        try (LinesBehind<JobInfo> rendering = new LinesBehind<>(table::line)) {
          client().jobs(query, fields, rendering::add);
          lines = rendering.lines();
        }
        if (!args.has("noheader")) {
          io.out().println(table.header());
        }
        print(lines);
      }
    } while (every != null && Iterate.pause(io, every));
    return 0;
  }

  /** The letters of a sort specification as a format, to learn which fields sorting reads. */
  private static String sortLetters(String sort) {
    StringBuilder f = new StringBuilder();
    for (String part : sort.split(",")) {
      f.append('%').append(part.strip().replaceFirst("^[-+]", "")).append(' ');
    }
    return f.toString();
  }

  /**
   * The format asked for: {@code -O} or {@code -o} on the command line, else {@code SQUEUE_FORMAT2},
   * else {@code SQUEUE_FORMAT} (either makes {@code -l} moot, as in squeue), else the default.
   */
  private String format(Getopt.Parsed args) {
    if (args.has("Format")) {
      return SqueueLongFormat.toPercentFormat(args.last("Format"));
    }
    if (args.has("format")) {
      return args.last("format");
    }
    String long2 = io.env().get("SQUEUE_FORMAT2");
    if (long2 != null && !long2.isBlank()) {
      return SqueueLongFormat.toPercentFormat(long2);
    }
    String env = io.env().get("SQUEUE_FORMAT");
    if (env != null && !env.isBlank()) {
      return env;
    }
    if (args.has("start")) {
      return START_FORMAT;
    }
    return args.has("long") ? LONG_FORMAT : DEFAULT_FORMAT;
  }
}
