package io.squall.cli;

import io.squall.cli.format.JobStates;
import io.squall.cli.format.TimeFormat;
import io.squall.cli.service.JobInfo;
import io.squall.cli.service.JobQuery;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code squeue}: the queue, filtered on the service, printed through a Slurm format. */
final class SqueueCommand extends ServiceCommand {
  static final String DEFAULT_FORMAT = "%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R";
  static final String LONG_FORMAT = "%.18i %.9P %.8j %.8u %.8T %.10M %.9l %.6D %R";

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
    // Like Slurm: unfinished jobs by default, any state when jobs are named, all with -t all.
    List<String> states = states(args, "states", args.has("jobs") ? List.of() : JobStates.ACTIVE);
    JobQuery query = new JobQuery(states, users(args), args.list("account"), args.list("partition"), args.list("name"),
        jobIds);
    if (args.has("json")) {
      // Formatting options do not apply to --json, as in squeue; the filters do (Slurm 23.11 and later).
      // It prints most fields, so it asks for all of them.
      List<JobInfo> jobs = client().jobs(query);
      io.out().println(Json.pretty(SlurmJson.answer(commandLine(), "jobs", jobs.stream().map(SqueueJson::job).toList())));
      return 0;
    }
    String format = format(args);
    String timeSetting = timeFormatSetting();
    SqueueLines lines;
    try {
      lines = SqueueLines.of(format, TimeFormat.of(timeSetting, io.zone(), io.clock().instant()));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (lines.fitted()) {
      print(lines.lines(client().jobs(query, lines.fields()), !args.has("noheader")));
      return 0;
    }
    // The service renders the lines with this same code when it can (the client's own parse and
    // rendering of 100,000 jobs took a second); each is otherwise rendered here as it is read.
    Map<String, String> rendering = new LinkedHashMap<>();
    rendering.put("format", format);
    if (timeSetting != null) {
      rendering.put("time_format", timeSetting);
    }
    rendering.put("zone", io.zone().getId());
    List<String> printed = client().jobLines(query, lines.fields(), lines::line, rendering);
    if (!args.has("noheader")) {
      io.out().println(lines.header());
    }
    print(printed);
    return 0;
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
    return args.has("long") ? LONG_FORMAT : DEFAULT_FORMAT;
  }
}
