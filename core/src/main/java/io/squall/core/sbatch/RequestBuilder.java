package io.squall.core.sbatch;

import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies options one by one (later ones win, as in Slurm) and checks how they combine. One
 * builder serves one request; it is not thread-safe.
 */
final class RequestBuilder {
  private static final Set<String> MAIL_TYPES = Set.of("NONE", "BEGIN", "END", "FAIL", "REQUEUE",
      "ALL", "INVALID_DEPEND", "STAGE_OUT", "TIME_LIMIT", "TIME_LIMIT_90", "TIME_LIMIT_80",
      "TIME_LIMIT_50", "ARRAY_TASKS");
  private static final Set<String> HINTS = Set.of("compute_bound", "memory_bound", "multithread",
      "nomultithread");
  private static final List<String> GPU_BIND_PREFIXES = List.of("closest", "none", "map_gpu:",
      "mask_gpu:", "per_task:", "single:", "verbose");
  private static final Set<SbatchOption> MEMORY = Set.of(SbatchOption.MEM, SbatchOption.MEM_PER_CPU,
      SbatchOption.MEM_PER_GPU);
  private static final Pattern NODE_COUNT = Pattern.compile("([+-]?)(\\d{1,9})([kK]?)([mM]?)");
  private static final String NAME_CHARS = "[A-Za-z0-9_.:@+-]+";

  private final Instant now;
  private final ZoneId zone;
  private final List<String> warnings;
  /** The last value given for each option: the one that counts. */
  private final Map<SbatchOption, OptionValue> given = new EnumMap<>(SbatchOption.class);
  /** When each option was last given, counting across sources: the later one wins. */
  private final Map<SbatchOption, Integer> order = new EnumMap<>(SbatchOption.class);
  private int sequence;
  /** Which source each option came from (0 the script, then the environment, then explicit options). */
  private final Map<SbatchOption, Integer> sourceOf = new EnumMap<>(SbatchOption.class);
  private int source = -1;

  RequestBuilder(Instant now, ZoneId zone, List<String> warnings) {
    this.now = now;
    this.zone = zone;
    this.warnings = warnings;
  }

  /**
   * Applies one source's options in order: all directives, then the input environment variables,
   * then all explicit options; each source overrides the ones before it.
   */
  void applyAll(List<OptionValue> options) {
    source++;
    for (OptionValue o : options) {
      if (MEMORY.contains(o.option())) {
        for (SbatchOption other : MEMORY) {
          OptionValue prior = given.get(other);
          if (other == o.option() || prior == null) {
            continue;
          }
          if (sourceOf.get(other) < source) {
            // A later source's memory option replaces an earlier one's other memory options (sbatch does
            // the same); within one source they are exclusive.
            given.remove(other);
          } else {
            throw o.error("--mem, --mem-per-cpu and --mem-per-gpu are mutually exclusive (" + prior.written()
                + " was given at " + prior.where() + ")");
          }
        }
      }
      check(o);
      given.put(o.option(), o);
      order.put(o.option(), sequence++);
      sourceOf.put(o.option(), source);
    }
  }

  /** Validates one value on its own so that the error names the directive that is wrong. */
  private void check(OptionValue o) {
    int control = o.value() == null ? -1 : SafeText.firstControl(o.value());
    if (control >= 0) {
      throw new SbatchException(o.where(), SafeText.quoted(o.written()), "contains a control character ("
          + SafeText.describe(o.value(), control) + "); paths, names and values are plain text");
    }
    switch (o.option()) {
      case NODES -> nodeRange(o);
      case NTASKS, NTASKS_PER_NODE, CPUS_PER_TASK, NTASKS_PER_GPU, CPUS_PER_GPU -> positive(o);
      case GPUS, GPUS_PER_NODE, GPUS_PER_TASK -> gpuCount(o);
      case GRES -> gres(o);
      case MEM, MEM_PER_CPU, MEM_PER_GPU -> memory(o);
      case TIME, TIME_MIN -> time(o);
      case ARRAY -> parse(o, ArraySpec::parse);
      case DEPENDENCY -> parse(o, Dependency::parse);
      case SIGNAL -> parse(o, SignalSpec::parse);
      case CONSTRAINT -> parse(o, Constraint::parse);
      case OUTPUT, ERROR, INPUT -> parse(o, v -> {
        FilenamePattern.validate(v);
        return v;
      });
      case NODELIST, EXCLUDE -> {
        hostlist(o);
        if (isHostFile(o)) {
          warnings.add(o.where() + ": " + o.written() + " names a file, which Squall does not read: the job is"
              + " placed as if it were not given; list the nodes, e.g. gpu[001-004]");
        }
      }
      case BEGIN, DEADLINE -> instant(o);
      case PARTITION -> partitions(o);
      case ACCOUNT, QOS -> name(o);
      case RESERVATION -> {
        if (!o.value().isBlank()) {
          name(o); // empty: none (scontrol update job ReservationName= clears it)
        }
      }
      case EXCLUSIVE -> exclusive(o);
      case NICE -> nice(o);
      case PRIORITY -> priority(o);
      case OPEN_MODE -> oneOf(o, Set.of("append", "truncate"));
      case MAIL_TYPE -> mailTypes(o);
      case WAIT_ALL_NODES -> oneOf(o, Set.of("0", "1"));
      case SWITCHES -> switches(o);
      case HINT -> oneOf(o, HINTS);
      case GPU_BIND -> gpuBind(o);
      case DISTRIBUTION -> distribution(o);
      case EXPORT -> export(o);
      case JOB_NAME, CHDIR, CONTAINER_IMAGE -> nonEmpty(o);
      // Slurm stores these strings as given, empty ones too (--comment=).
      case COMMENT, MAIL_USER, HOLD, REQUEUE, NO_REQUEUE -> { }
      case ACCTG_FREQ, AUTOCOMPLETE, BATCH, BB, BBF, CLUSTER_CONSTRAINT, CLUSTERS, CONTAINER, CONTAINER_ID,
          CONTEXT, CONTIGUOUS, CORE_SPEC, CORES_PER_SOCKET, CPU_FREQ, DELAY_BOOT, EXPORT_FILE,
          EXTRA, EXTRA_NODE_INFO, GET_USER_ENV, GID, GPU_FREQ, GPUS_PER_SOCKET, GRES_FLAGS, HELP,
          IGNORE_PBS, KILL_ON_INVALID_DEP, LICENSES, MCS_LABEL, MEM_BIND, MINCPUS, NETWORK,
          NO_KILL, NODEFILE, NTASKS_PER_CORE, NTASKS_PER_SOCKET, OVERCOMMIT, OVERSUBSCRIBE,
          PARSABLE, POWER, PREFER, PROFILE, PROPAGATE, QUIET, REBOOT, SEGMENT, SOCKETS_PER_NODE,
          SPREAD_JOB, STEPMGR, TEST_ONLY, THREAD_SPEC, THREADS_PER_CORE, TMP, TRES_BIND,
          TRES_PER_TASK, UID, USAGE, USE_MIN_NODES, VERBOSE, VERSION, WAIT, WCKEY, WRAP -> StoredOptionSyntax.check(o);
    }
    if (o.option().notHonoured() != null) {
      warnings.add(o.where() + ": " + o.written() + " is accepted but not honoured: " + o.option().notHonoured());
    }
  }

  JobRequest build(String script, String defaultName) {
    Integer[] nodes = nodeRange(given.get(SbatchOption.NODES));
    Integer nodesMin = nodes[0];
    Integer nodesMax = nodes[1];
    Integer ntasks = intValue(SbatchOption.NTASKS);
    if (ntasks != null && nodesMin != null && ntasks < nodesMin) {
      warnings.add("can't run " + ntasks + " tasks on " + nodesMin + " nodes, setting nodes to " + ntasks
          + " (as sbatch does)");
      nodesMin = ntasks;
      nodesMax = Math.min(nodesMax, ntasks);
    }
    GpuCount gpus = gpuValue(SbatchOption.GPUS);
    GpuCount perNode = gpuValue(SbatchOption.GPUS_PER_NODE);
    OptionValue gres = given.get(SbatchOption.GRES);
    if (gres != null && (perNode == null || isLater(gres, given.get(SbatchOption.GPUS_PER_NODE)))) {
      perNode = gres(gres);
    }
    GpuCount perTask = gpuValue(SbatchOption.GPUS_PER_TASK);
    if (perTask != null && given.containsKey(SbatchOption.NTASKS_PER_GPU)) {
      throw given.get(SbatchOption.NTASKS_PER_GPU).error("--ntasks-per-gpu and --gpus-per-task are mutually exclusive");
    }
    String gpuType = firstType(gpus, perNode, perTask);
    checkGpuTypes(gpuType, gpus, perNode, perTask);

    Integer time = timeValue(SbatchOption.TIME);
    Integer timeMin = timeValue(SbatchOption.TIME_MIN);
    if (time != null && timeMin != null && time != TimeLimit.UNLIMITED
        && (timeMin == TimeLimit.UNLIMITED || timeMin > time)) {
      throw given.get(SbatchOption.TIME_MIN).error("--time-min must not be above --time (" + TimeLimit.format(time) + ")");
    }
    Instant begin = instantValue(SbatchOption.BEGIN);
    Instant deadline = instantValue(SbatchOption.DEADLINE);
    if (deadline != null && begin != null && !deadline.isAfter(begin)) {
      throw given.get(SbatchOption.DEADLINE).error("the deadline must be after --begin");
    }

    var resources = new JobRequest.Resources(nodesMin, nodesMax, ntasks,
        intValue(SbatchOption.NTASKS_PER_NODE), intValue(SbatchOption.CPUS_PER_TASK),
        count(gpus), count(perNode), count(perTask), intValue(SbatchOption.NTASKS_PER_GPU),
        intValue(SbatchOption.CPUS_PER_GPU), gpuType, memValue(SbatchOption.MEM),
        memValue(SbatchOption.MEM_PER_CPU), memValue(SbatchOption.MEM_PER_GPU),
        given.containsKey(SbatchOption.EXCLUSIVE) ? exclusive(given.get(SbatchOption.EXCLUSIVE)) : Exclusive.NO,
        otherGres());
    Switches switches = given.containsKey(SbatchOption.SWITCHES) ? switches(given.get(SbatchOption.SWITCHES)) : null;
    OptionValue constraint = given.get(SbatchOption.CONSTRAINT);
    var placement = new JobRequest.Placement(
        given.containsKey(SbatchOption.PARTITION) ? partitions(given.get(SbatchOption.PARTITION)) : List.of(),
        constraint == null ? null : Constraint.parse(constraint.value()),
        constraint == null ? null : constraint.value(),
        hostsValue(SbatchOption.NODELIST), hostsValue(SbatchOption.EXCLUDE),
        switches == null ? null : switches.count(), switches == null ? null : switches.waitMinutes(),
        emptyToNull(value(SbatchOption.RESERVATION)), value(SbatchOption.GPU_BIND), value(SbatchOption.HINT),
        value(SbatchOption.DISTRIBUTION));
    List<String> overlap = new ArrayList<>(placement.nodelist());
    overlap.retainAll(placement.exclude());
    if (!overlap.isEmpty()) {
      throw given.get(SbatchOption.EXCLUDE).error("node " + overlap.get(0) + " is both required (--nodelist) and excluded");
    }
    if (nodesMax != null && placement.nodelist().size() > nodesMax) {
      throw given.get(SbatchOption.NODELIST).error("--nodelist names " + placement.nodelist().size()
          + " nodes but at most " + nodesMax + " were requested with --nodes");
    }
    var timing = new JobRequest.Timing(time, timeMin, begin, deadline);
    var files = new JobRequest.Files(value(SbatchOption.OUTPUT), value(SbatchOption.ERROR),
        value(SbatchOption.INPUT), value(SbatchOption.CHDIR), value(SbatchOption.OPEN_MODE),
        value(SbatchOption.EXPORT), value(SbatchOption.CONTAINER_IMAGE));
    Boolean requeue = null;
    OptionValue rq = given.get(SbatchOption.REQUEUE);
    OptionValue noRq = given.get(SbatchOption.NO_REQUEUE);
    if (rq != null || noRq != null) {
      requeue = noRq == null || (rq != null && isLater(rq, noRq));
    }
    OptionValue nice = given.get(SbatchOption.NICE);
    OptionValue wait = given.get(SbatchOption.WAIT_ALL_NODES);
    var control = new JobRequest.Control(
        parsed(SbatchOption.ARRAY, ArraySpec::parse), parsed(SbatchOption.DEPENDENCY, Dependency::parse),
        requeue, given.containsKey(SbatchOption.HOLD), nice == null ? null : nice(nice),
        given.containsKey(SbatchOption.PRIORITY) ? priority(given.get(SbatchOption.PRIORITY)) : null,
        parsed(SbatchOption.SIGNAL, SignalSpec::parse), value(SbatchOption.ACCOUNT), value(SbatchOption.QOS),
        value(SbatchOption.COMMENT), mailTypeValue(), value(SbatchOption.MAIL_USER),
        wait == null ? null : wait.value().equals("1"));
    refuseTogether(SbatchOption.EXCLUSIVE, SbatchOption.OVERSUBSCRIBE,
        "--exclusive and --oversubscribe options are mutually exclusive");
    refuseTogether(SbatchOption.CORE_SPEC, SbatchOption.THREAD_SPEC,
        "-S/--core-spec and --thread-spec options are mutually exclusive");
    refuseTogether(SbatchOption.NTASKS_PER_GPU, SbatchOption.GPUS_PER_SOCKET,
        "--gpus-per-socket is mutually exclusive with --ntasks-per-gpu");
    refuseTogether(SbatchOption.NTASKS_PER_GPU, SbatchOption.TRES_PER_TASK,
        "--tres-per-task is mutually exclusive with --ntasks-per-gpu");
    Map<String, String> unhonoured = new LinkedHashMap<>();
    given.forEach((option, o) -> {
      if (option.notHonoured() != null) {
        unhonoured.put(option.longName(), o.value() == null ? "" : o.value());
      }
    });
    String name = value(SbatchOption.JOB_NAME);
    return new JobRequest(name != null ? name : defaultName, script, resources, placement, timing, files, control,
        unhonoured);
  }

  /** Slurm refuses some pairs outright (slurm_opt.c's validate_options_salloc_sbatch_srun). */
  private void refuseTogether(SbatchOption a, SbatchOption b, String reason) {
    OptionValue first = given.get(a);
    OptionValue second = given.get(b);
    if (first != null && second != null) {
      throw (isLater(first, second) ? first : second).error(reason);
    }
  }

  /** Whether {@code a} was given after {@code b} (explicit options come after every directive). */
  private boolean isLater(OptionValue a, OptionValue b) {
    return b == null || order.get(a.option()) > order.get(b.option());
  }

  // --- single-value checks; each returns the parsed value and throws with the directive quoted ---

  private static <T> T parse(OptionValue o, Function<String, T> parser) {
    try {
      return parser.apply(o.value());
    } catch (IllegalArgumentException e) {
      throw o.error(e.getMessage());
    }
  }

  private <T> T parsed(SbatchOption option, Function<String, T> parser) {
    OptionValue o = given.get(option);
    return o == null ? null : parse(o, parser);
  }

  private static int wholeNumber(OptionValue o, String text, int min) {
    if (!WholeNumber.is(text)) {
      throw o.error("expected a whole number, got '" + text + "'");
    }
    int n = Integer.parseInt(text);
    if (n < min) {
      throw o.error("must be at least " + min);
    }
    return n;
  }

  private static int positive(OptionValue o) {
    return wholeNumber(o, o.value().strip(), 1);
  }

  /**
   * {@code N} or {@code min-max} as Slurm's verify_node_count reads them: counts may carry a k or
   * m multiplier, a missing or negative minimum is 1 ({@code -4} is 1-4), and a maximum of 0
   * means none.
   */
  private Integer[] nodeRange(OptionValue o) {
    if (o == null) {
      return new Integer[] {null, null};
    }
    String v = o.value();
    int dash = v.indexOf('-');
    if (dash < 0) {
      Long n = nodeCount(o, v);
      if (n == null || n < 1) {
        throw o.error(n == null ? "expected a whole number, got '" + v.strip() + "'" : "must be at least 1");
      }
      return new Integer[] {n.intValue(), n.intValue()};
    }
    Long low = nodeCount(o, v.substring(0, dash));
    int min = low == null || low < 1 ? 1 : low.intValue();
    Long max = nodeCount(o, v.substring(dash + 1));
    if (max == null || max < 0) {
      throw o.error("no maximum node count after '-' (sbatch refuses it too: Maximum node count -1 is less than"
          + " minimum node count " + min + "); write " + min + " or " + min + "-N");
    }
    if (max == 0) {
      String warning = o.where() + ": " + o.written() + ": Slurm reads a maximum of 0 as none; Squall starts the"
          + " job on its minimum of " + min + " node" + (min == 1 ? "" : "s");
      if (!warnings.contains(warning)) {
        warnings.add(warning);
      }
      return new Integer[] {min, min};
    }
    if (max < min) {
      throw o.error("the maximum node count " + max + " is below the minimum " + min);
    }
    return new Integer[] {min, max.intValue()};
  }

  /** Slurm's _str_to_nodes: a signed number with optional k then m (x1024 each); null without digits. */
  private static Long nodeCount(OptionValue o, String text) {
    String t = text.strip();
    if (t.isEmpty()) {
      return null;
    }
    Matcher m = NODE_COUNT.matcher(t);
    if (!m.matches()) {
      throw o.error("\"" + t + "\" is not a valid node count");
    }
    long n = Long.parseLong(m.group(2)) * (m.group(3).isEmpty() ? 1 : 1024) * (m.group(4).isEmpty() ? 1 : 1048576);
    if (n > Integer.MAX_VALUE) {
      throw o.error("node count " + t + " is too large");
    }
    return m.group(1).equals("-") ? -n : n;
  }

  /** A GPU count with an optional type: {@code 4} or {@code h100:4}. */
  record GpuCount(String type, int count) {}

  private static GpuCount gpuCount(OptionValue o) {
    String v = o.value().strip();
    int colon = v.lastIndexOf(':');
    String type = colon < 0 ? null : v.substring(0, colon);
    if (type != null && !type.matches("[A-Za-z0-9_.-]+")) {
      throw o.error("bad GPU type '" + type + "': expected [type:]count, e.g. h100:8");
    }
    return new GpuCount(type, wholeNumber(o, colon < 0 ? v : v.substring(colon + 1), 1));
  }

  /** A {@code --gres} entry's name: Slurm's GRES names (gpu, shard, nvme, ...). */
  private static final Pattern GRES_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");

  /**
   * {@code --gres=name[:type][:count]} entries separated by commas: the GPUs, if named. Other
   * names are well-formed or refused here, as sbatch does; whether the cluster has them is the
   * server's to say ({@link #otherGres}), as slurmctld does. {@code none} asks for none.
   */
  private static GpuCount gres(OptionValue o) {
    GpuCount result = null;
    for (String entry : gresEntries(o)) {
      String[] parts = entry.split(":", -1);
      if (!parts[0].equals("gpu")) {
        continue;
      }
      if (result != null) {
        throw o.error("gpu is named twice");
      }
      String last = parts[parts.length - 1];
      boolean lastIsCount = last.chars().allMatch(Character::isDigit);
      // gpu:h100:-1 is a type and a bad count, not a type named "h100" with the count left out.
      if (parts.length == 3 && !lastIsCount || parts.length == 2 && !last.matches("[A-Za-z_.][A-Za-z0-9_.-]*|\\d+")) {
        throw o.error("bad GRES '" + entry + "': the count must be a whole number, e.g. gpu:h100:2");
      }
      String type = parts.length == 3 || (parts.length == 2 && !lastIsCount) ? parts[1] : null;
      int count = parts.length > 1 && lastIsCount ? wholeNumber(o, parts[parts.length - 1], 1) : 1;
      result = new GpuCount(type, count);
    }
    return result;
  }

  /** The well-formed entries of a {@code --gres} value, {@code none} being none. */
  private static List<String> gresEntries(OptionValue o) {
    String v = o.value().strip();
    if (v.equals("none")) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (String raw : v.split(",", -1)) {
      String entry = raw.strip();
      String[] parts = entry.split(":", -1);
      if (parts.length > 3 || Arrays.asList(parts).contains("") || !GRES_NAME.matcher(parts[0]).matches()) {
        throw o.error("bad GRES '" + entry + "': expected name[:type][:count], e.g. gpu:h100:2");
      }
      out.add(entry);
    }
    return out;
  }

  /** The {@code --gres} entries other than GPUs, as given: for the server to check against its nodes. */
  private List<String> otherGres() {
    OptionValue o = given.get(SbatchOption.GRES);
    return o == null ? List.of() : gresEntries(o).stream().filter(e -> !e.split(":", -1)[0].equals("gpu")).toList();
  }

  private static long memory(OptionValue o) {
    long mb = parse(o, MemorySize::parseMb);
    if (mb == 0 && o.option() != SbatchOption.MEM) {
      throw o.error("must be above zero (only --mem=0 means the whole node)");
    }
    return mb;
  }

  private static int time(OptionValue o) {
    int minutes = parse(o, TimeLimit::parseMinutes);
    // "A time limit of zero requests that no time limit be imposed" (sbatch(1)).
    return minutes == 0 ? TimeLimit.UNLIMITED : minutes;
  }

  /** Slurm reads a node list with a {@code /} in it from that file on the submit host. */
  private static boolean isHostFile(OptionValue o) {
    return o.value().indexOf('/') >= 0;
  }

  private static List<String> hostlist(OptionValue o) {
    String v = o.value().strip();
    if (isHostFile(o)) {
      return List.of();
    }
    try {
      return Hostlist.expand(v);
    } catch (HostlistException e) {
      throw o.error(e.getMessage());
    }
  }

  private Instant instant(OptionValue o) {
    return parse(o, v -> BeginTime.parse(v, now, zone));
  }

  private static List<String> partitions(OptionValue o) {
    List<String> out = new ArrayList<>();
    for (String p : o.value().split(",", -1)) {
      if (!p.strip().matches(NAME_CHARS)) {
        throw o.error("bad partition name '" + p + "'");
      }
      if (!out.contains(p.strip())) {
        out.add(p.strip());
      }
    }
    return out;
  }

  private static void name(OptionValue o) {
    if (!o.value().strip().matches(NAME_CHARS)) {
      throw o.error("bad name '" + o.value() + "': use letters, digits and _ . : @ + -");
    }
  }

  private static void nonEmpty(OptionValue o) {
    if (o.value().isEmpty()) {
      throw o.error("needs a value");
    }
  }

  private static Exclusive exclusive(OptionValue o) {
    if (o.value() == null) {
      return Exclusive.NODE;
    }
    return switch (o.value().strip().toLowerCase(Locale.ROOT)) {
      case "exclusive" -> Exclusive.NODE;
      // Slurm's --exclusive=oversubscribe is --oversubscribe: sharing as the partition allows.
      case "oversubscribe" -> Exclusive.NO;
      case "user" -> Exclusive.USER;
      case "mcs" -> Exclusive.MCS;
      case "topo" -> Exclusive.TOPO;
      default -> throw o.error("expected --exclusive or --exclusive=exclusive, oversubscribe, user, mcs or topo");
    };
  }

  private static int nice(OptionValue o) {
    if (o.value() == null) {
      return 100;
    }
    String v = o.value().strip();
    boolean negative = v.startsWith("-");
    int n = wholeNumber(o, negative || v.startsWith("+") ? v.substring(1) : v, 0);
    if (n > 2147483645) {
      throw o.error("must be between -2147483645 and 2147483645");
    }
    return negative ? -n : n;
  }

  private static long priority(OptionValue o) {
    String v = o.value().strip();
    if (v.equalsIgnoreCase("TOP")) {
      return Integer.MAX_VALUE - 1L;
    }
    return wholeNumber(o, v, 0);
  }

  private static void oneOf(OptionValue o, Set<String> allowed) {
    if (!allowed.contains(o.value().strip())) {
      throw o.error("expected one of " + String.join(", ", allowed.stream().sorted().toList()));
    }
  }

  private static void mailTypes(OptionValue o) {
    for (String t : o.value().split(",", -1)) {
      if (!MAIL_TYPES.contains(t.strip().toUpperCase(Locale.ROOT))) {
        throw o.error("unknown mail type '" + t + "': use " + String.join(",", MAIL_TYPES.stream().sorted().toList()));
      }
    }
  }

  /** {@code N[@time]}: at most N switches, waiting at most time (minutes) for them. */
  record Switches(int count, Integer waitMinutes) {}

  private static Switches switches(OptionValue o) {
    String v = o.value().strip();
    int at = v.indexOf('@');
    int count = wholeNumber(o, at < 0 ? v : v.substring(0, at), 1);
    Integer wait = null;
    if (at >= 0) {
      wait = parse(new OptionValue(o.option(), v.substring(at + 1), o.where(), o.written()), TimeLimit::parseMinutes);
    }
    return new Switches(count, wait);
  }

  private static void gpuBind(OptionValue o) {
    String v = o.value().strip();
    for (String part : v.split(",", -1)) {
      if (GPU_BIND_PREFIXES.stream().noneMatch(part::startsWith)) {
        throw o.error("unknown GPU binding '" + part + "': use closest, none, map_gpu:, mask_gpu:, per_task:, single: or verbose");
      }
    }
  }

  private static void distribution(OptionValue o) {
    String v = o.value().strip();
    String levels = v.contains(",") ? v.substring(0, v.indexOf(',')) : v;
    String flag = v.contains(",") ? v.substring(v.indexOf(',') + 1) : null;
    for (String level : levels.split(":", -1)) {
      if (!level.matches("\\*|block|cyclic|arbitrary|fcyclic|plane=\\d+")) {
        throw o.error("unknown distribution '" + level + "': use block, cyclic, arbitrary, fcyclic or plane=N");
      }
    }
    if (flag != null && !flag.equalsIgnoreCase("Pack") && !flag.equalsIgnoreCase("NoPack")) {
      throw o.error("unknown flag '" + flag + "': use Pack or NoPack");
    }
  }

  private static void export(OptionValue o) {
    for (String part : o.value().split(",", -1)) {
      String name = part.contains("=") ? part.substring(0, part.indexOf('=')) : part;
      if (!name.matches("ALL|NONE|NIL|[A-Za-z_][A-Za-z0-9_]*")) {
        throw o.error("bad variable name '" + name + "' in --export");
      }
    }
  }

  // --- accessors for the values that count ---

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  private String value(SbatchOption option) {
    OptionValue o = given.get(option);
    return o == null ? null : o.value().strip();
  }

  private Integer intValue(SbatchOption option) {
    OptionValue o = given.get(option);
    return o == null ? null : positive(o);
  }

  private GpuCount gpuValue(SbatchOption option) {
    OptionValue o = given.get(option);
    return o == null ? null : gpuCount(o);
  }

  private static Integer count(GpuCount g) {
    return g == null ? null : g.count();
  }

  private Long memValue(SbatchOption option) {
    OptionValue o = given.get(option);
    return o == null ? null : memory(o);
  }

  private Integer timeValue(SbatchOption option) {
    OptionValue o = given.get(option);
    return o == null ? null : time(o);
  }

  private Instant instantValue(SbatchOption option) {
    OptionValue o = given.get(option);
    return o == null ? null : instant(o);
  }

  private List<String> hostsValue(SbatchOption option) {
    OptionValue o = given.get(option);
    return o == null ? List.of() : hostlist(o);
  }

  private String mailTypeValue() {
    String v = value(SbatchOption.MAIL_TYPE);
    return v == null ? null : v.toUpperCase(Locale.ROOT);
  }

  private static String firstType(GpuCount... counts) {
    for (GpuCount g : counts) {
      if (g != null && g.type() != null) {
        return g.type();
      }
    }
    return null;
  }

  private void checkGpuTypes(String type, GpuCount gpus, GpuCount perNode, GpuCount perTask) {
    SbatchOption[] options = {SbatchOption.GPUS, null, SbatchOption.GPUS_PER_TASK};
    GpuCount[] counts = {gpus, perNode, perTask};
    for (int i = 0; i < counts.length; i++) {
      if (counts[i] != null && counts[i].type() != null && !counts[i].type().equals(type)) {
        OptionValue o = options[i] != null ? given.get(options[i])
            : given.getOrDefault(SbatchOption.GPUS_PER_NODE, given.get(SbatchOption.GRES));
        throw o.error("GPU type '" + counts[i].type() + "' differs from '" + type + "' given elsewhere");
      }
    }
  }
}
