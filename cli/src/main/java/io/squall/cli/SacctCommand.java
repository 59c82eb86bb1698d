package io.squall.cli;

import io.squall.cli.format.LineTemplate;
import io.squall.cli.format.Table;
import io.squall.cli.format.TimeFormat;
import io.squall.cli.format.Table.Column;
import io.squall.cli.service.AccountingJob;
import io.squall.cli.service.AccountingQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code sacct}: jobs that ran in a time window, in fixed-width columns or {@code |}-separated. */
final class SacctCommand extends ServiceCommand {
  SacctCommand(Invocation io) {
    super("sacct", io);
  }

  @Override
  List<Getopt.Option> options() {
    return List.of(
        Getopt.Option.value('j', "jobs"),
        Getopt.Option.value('u', "user"),
        Getopt.Option.value('A', "accounts"),
        Getopt.Option.value('S', "starttime"),
        Getopt.Option.value('E', "endtime"),
        Getopt.Option.value('s', "state"),
        Getopt.Option.value('o', "format"),
        Getopt.Option.flag('X', "allocations"),
        Getopt.Option.flag('n', "noheader"),
        Getopt.Option.flag('P', "parsable2"),
        Getopt.Option.flag('p', "parsable"),
        Getopt.Option.flag('a', "allusers"),
        Getopt.Option.flag('b', "brief"),
        Getopt.Option.flag('l', "long"),
        Getopt.Option.value('\0', "name"),
        Getopt.Option.value('r', "partition"),
        Getopt.Option.value('q', "qos"),
        Getopt.Option.value('N', "nodelist"),
        Getopt.Option.value('\0', "delimiter"),
        Getopt.Option.flag('e', "helpformat"),
        Getopt.Option.flag('D', "duplicates"),
        Getopt.Option.flag('L', "allclusters"),
        Getopt.Option.flag('v', "verbose"),
        Getopt.Option.flag('\0', "local"),
        Getopt.Option.flag('\0', "noconvert"),
        Getopt.Option.flag('\0', "json"));
  }

  @Override
  String usage() {
    return """
        Usage: sacct [OPTIONS]
          -j, --jobs=LIST        these jobs (any time)
          -u, --user=LIST        jobs of these users
          -A, --accounts=LIST    jobs of these accounts
          -s, --state=LIST       jobs in these states
          -S, --starttime=TIME   from TIME (default: midnight today)
          -E, --endtime=TIME     until TIME (default: now)
              TIME: YYYY-MM-DD[THH:MM[:SS]], MM/DD[/YY], HH:MM[:SS], now-2hours, today ...
          -o, --format=FIELDS    (default: $SACCT_FORMAT) e.g. JobID,JobName%30,State,ExitCode,Start,End,Elapsed,NNodes,
                                 NodeList,AllocTRES,ReqTRES,Timelimit,QOS,GPUHours,User,Account,Partition,Submit,
                                 Eligible,RestartCount,Cost (USD),CapacityType (spot, on-demand),InstanceType
              --name=LIST        jobs with these names
          -r, --partition=LIST   jobs in these partitions
          -q, --qos=LIST         jobs of these QOS
          -N, --nodelist=HOSTS   jobs that ran on these nodes
          -b, --brief            JobID,State,ExitCode
          -l, --long             sacct's long list of fields (step statistics print empty)
          -e, --helpformat       the fields --format takes
          -n, --noheader         no header lines
          -P, --parsable2        '|' between fields     -p, --parsable   and after the last
              --delimiter=CHARS  between fields instead of '|' (with -p or -P)
          -X, --allocations      accepted (Squall has no job steps)
          -D, --duplicates       accepted (one record per job, its last run)
          -L, --allclusters, -v, --local, --noconvert: accepted (one cluster)
              --json             the jobs as Slurm 23.02's sacct --json prints them""";
  }

  @Override
  int execute(Getopt.Parsed args) {
    if (!args.operands().isEmpty()) {
      throw new UsageException("Unrecognized option: " + args.operands().get(0));
    }
    if (args.has("helpformat")) {
      print(SacctField.helpFormat());
      return 0;
    }
    SacctFilter filter = SacctFilter.of(args);
    // Formatting options do not apply to --json, as in sacct; a bad --format is still found before asking.
    List<LineTemplate.Field> fields = args.has("json") ? List.of() : fields(args);
    Instant now = io.clock().instant();
    // With jobs named and no start, sacct looks at all time rather than today.
    Instant start = args.has("starttime") ? SacctTime.parse(args.last("starttime"), now, io.zone())
        : args.has("jobs") ? Instant.EPOCH : null;
    Instant end = args.has("endtime") ? SacctTime.parse(args.last("endtime"), now, io.zone()) : null;
    List<String> jobIds = JobIds.expand(args.values().getOrDefault("jobs", List.of()));
    AccountingQuery query = new AccountingQuery(args.list("user"), args.list("accounts"), jobIds,
        states(args, "state", List.of()), start, end);
    List<AccountingJob> jobs = client().accounting(query).stream().filter(filter::keeps).toList();
    if (args.has("json")) {
      io.out().println(Json.pretty(SlurmJson.answer(commandLine(), "jobs", jobs.stream().map(SacctJson::job).toList())));
      return 0;
    }
    boolean parsable = args.has("parsable2") || args.has("parsable");
    String delimiter = args.has("delimiter") ? args.last("delimiter") : "|";
    LineTemplate template = parsable
        ? LineTemplate.columns(fields.stream().map(f -> f.withWidth(0)).toList(), delimiter,
            args.has("parsable") ? delimiter : "", LineTemplate.Overflow.MARK)
        : LineTemplate.columns(fields, " ", "", LineTemplate.Overflow.MARK);
    Map<String, Column<AccountingJob>> columns = new LinkedHashMap<>();
    TimeFormat time = timeFormat();
    for (SacctField f : SacctField.values()) {
      columns.put(f.title(), new Column<>(f.title(), j -> f.value(j, time)));
    }
    SacctField.NOT_RECORDED.keySet().forEach(title -> columns.put(title, new Column<>(title, j -> "")));
    print(new Table<>(template, columns).lines(jobs, !args.has("noheader"), !parsable));
    return 0;
  }

  /**
   * {@code JobID,JobName%30,State%-12}: names in any case, each with an optional width. As in sacct,
   * {@code --brief}'s and then {@code --long}'s fields follow {@code --format}'s, and
   * {@code SACCT_FORMAT} is used only when none was given.
   */
  private List<LineTemplate.Field> fields(Getopt.Parsed args) {
    List<String> names = new ArrayList<>();
    args.values().getOrDefault("format", List.of()).forEach(v -> names.addAll(List.of(v.split(","))));
    if (args.has("brief")) {
      SacctField.BRIEF.forEach(f -> names.add(f.title()));
    }
    if (args.has("long")) {
      names.addAll(List.of(SacctField.LONG.split(",")));
    }
    String env = io.env().get("SACCT_FORMAT");
    if (names.isEmpty() && env != null) {
      names.addAll(List.of(env.split(",")));
    } else if (names.isEmpty()) {
      SacctField.DEFAULT.forEach(f -> names.add(f.title()));
    }
    List<LineTemplate.Field> fields = new ArrayList<>();
    for (String spec : names) {
      if (spec.isBlank()) {
        continue;
      }
      int percent = spec.indexOf('%');
      String title = SacctField.title(percent < 0 ? spec : spec.substring(0, percent));
      int width = SacctField.width(title);
      if (percent >= 0) {
        try {
          int given = Integer.parseInt(spec.substring(percent + 1).strip());
          if (Math.abs((long) given) > LineTemplate.MAX_WIDTH) {
            throw new UsageException("Invalid field width in \"" + spec.strip() + "\": at most "
                + LineTemplate.MAX_WIDTH);
          }
          width = given == 0 ? width : given;
        } catch (NumberFormatException e) {
          throw new UsageException("Invalid field width in \"" + spec.strip() + "\": use NAME%WIDTH, e.g. JobName%30");
        }
      }
      fields.add(new LineTemplate.Field(title, Math.abs(width), width > 0, false));
    }
    if (fields.isEmpty()) {
      throw new UsageException("no fields to print in --format");
    }
    return fields;
  }
}
