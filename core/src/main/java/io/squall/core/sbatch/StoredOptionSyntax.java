package io.squall.core.sbatch;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Checks the values of options Squall stores but does not honour, as sbatch's own setters in
 * Slurm's slurm_opt.c check them: a value Slurm refuses is refused here too, so a script that
 * fails on a real cluster fails here, while every value Slurm takes is taken.
 */
final class StoredOptionSyntax {
  private static final String FREQUENCY = "low|medium|high|highm1|\\d+";
  private static final Pattern CPU_FREQ = Pattern.compile(
      "(?i)((" + FREQUENCY + ")(-(" + FREQUENCY + "))?(:(conservative|ondemand|performance|powersave|schedutil"
          + "|userspace))?|conservative|ondemand|performance|powersave|schedutil|userspace)");
  private static final Pattern GPU_FREQ = Pattern.compile("(?i)(verbose|(memory=)?(" + FREQUENCY + "))");
  private static final Pattern ACCTG_FREQ = Pattern.compile("(?i)((task|energy|network|filesystem)=)?\\d+");
  /** -B: sockets[:cores[:threads]], each a count, a min-max range or *. */
  private static final Pattern NODE_LAYOUT = Pattern.compile("(\\*|\\d+[kKmM]?(-\\d+[kKmM]?)?)?"
      + "(:(\\*|\\d+[kKmM]?(-\\d+[kKmM]?)?)?){0,2}");
  /** strtol's number, then one optional S or L (sbatch reads only the letter after the number). */
  private static final Pattern GET_USER_ENV = Pattern.compile("\\s*([+-]?\\d+)?([sSlL].*)?");
  private static final Set<String> PROFILES = Set.of("all", "none", "energy", "task", "lustre", "network");
  private static final Set<String> MEM_BIND = Set.of("help", "none", "no", "local", "rank", "verbose", "v",
      "quiet", "q", "sort", "nosort", "prefer", "p");
  /** The TRES _validate_tres_per_task refuses per task. */
  private static final List<String> NOT_PER_TASK = List.of("mem", "energy", "node", "billing", "fs", "vmem",
      "pages", "bb");

  private StoredOptionSyntax() {}

  /** @throws SbatchException quoting the directive, when Slurm would refuse the value */
  static void check(OptionValue o) {
    String v = o.value() == null ? null : o.value().strip();
    switch (o.option()) {
      case ACCTG_FREQ -> eachMatches(o, v, ACCTG_FREQ, "datatype=seconds, datatype one of task, energy, network,"
          + " filesystem");
      case CPU_FREQ -> matches(o, v, CPU_FREQ, "low, medium, high, highm1 or kHz, optionally -max and :governor");
      case GPU_FREQ -> eachMatches(o, v, GPU_FREQ, "low, medium, high, highm1 or MHz, memory=..., verbose");
      case CORE_SPEC, SEGMENT -> count(o, v, 0);
      case CORES_PER_SOCKET, SOCKETS_PER_NODE, THREADS_PER_CORE, NTASKS_PER_CORE, NTASKS_PER_SOCKET, MINCPUS,
          THREAD_SPEC -> count(o, v, 1);
      case DELAY_BOOT -> {
        try {
          TimeLimit.parseSeconds(v);
        } catch (IllegalArgumentException e) {
          throw o.error(e.getMessage());
        }
      }
      case EXTRA_NODE_INFO -> matches(o, v, NODE_LAYOUT, "sockets[:cores[:threads]], each N, min-max or *");
      case GET_USER_ENV -> {
        if (v != null && !GET_USER_ENV.matcher(v).matches()) {
          throw o.error("expected seconds with an optional S or L, e.g. 10L");
        }
      }
      case GPUS_PER_SOCKET -> {
        if (!v.matches("([A-Za-z0-9_.-]+:)?\\d+") || v.endsWith(":0") || v.matches("0+")) {
          throw o.error("expected [type:]count with a count of at least 1, e.g. h100:4");
        }
      }
      case GRES_FLAGS -> gresFlags(o, v);
      case KILL_ON_INVALID_DEP -> oneOf(o, v, Set.of("yes", "no"));
      case MEM_BIND -> memBind(o, v);
      case NO_KILL -> {
        if (v != null) {
          oneOf(o, v, Set.of("set", "off", "no"));
        }
      }
      case PROFILE -> {
        for (String p : v.split(",", -1)) {
          oneOf(o, p, PROFILES);
        }
      }
      case TMP -> {
        try {
          MemorySize.parseMb(v);
        } catch (IllegalArgumentException e) {
          throw o.error(e.getMessage());
        }
      }
      case TRES_PER_TASK -> tresPerTask(o, v);
      case UID, GID -> {
        if (v.isEmpty()) {
          throw o.error("needs a user or group name or id");
        }
      }
      default -> {
        // Free text Slurm passes on as given (--comment=, --licenses=, --wckey= may be empty).
      }
    }
  }

  private static void matches(OptionValue o, String v, Pattern p, String expected) {
    if (!p.matcher(v).matches()) {
      throw o.error("invalid value '" + v + "': expected " + expected);
    }
  }

  private static void eachMatches(OptionValue o, String v, Pattern p, String expected) {
    for (String part : v.split(",", -1)) {
      matches(o, part.strip(), p, expected);
    }
  }

  /** Slurm's parse_int: a whole number of at least {@code min}. */
  private static void count(OptionValue o, String v, int min) {
    if (!WholeNumber.is(v) || Integer.parseInt(v) < min) {
      throw o.error("expected a whole number of at least " + min + ", got '" + v + "'");
    }
  }

  private static void oneOf(OptionValue o, String v, Set<String> allowed) {
    if (!allowed.contains(v.strip().toLowerCase(Locale.ROOT))) {
      throw o.error("unknown value '" + v + "': use " + String.join(", ", allowed.stream().sorted().toList()));
    }
  }

  private static void gresFlags(OptionValue o, String v) {
    Set<String> flags = new TreeSet<>();
    for (String f : v.split(",", -1)) {
      String flag = f.strip().toLowerCase(Locale.ROOT);
      if (flag.equals("allow-task-sharing")) {
        throw o.error("--gres-flags=allow-task-sharing is only used with srun");
      }
      oneOf(o, flag, Set.of("disable-binding", "enforce-binding", "multiple-tasks-per-sharing",
          "one-task-per-sharing"));
      flags.add(flag);
    }
    if (flags.contains("disable-binding") && flags.contains("enforce-binding")) {
      throw o.error("disable-binding and enforce-binding are mutually exclusive");
    }
    if (flags.contains("one-task-per-sharing") && flags.contains("multiple-tasks-per-sharing")) {
      throw o.error("one-task-per-sharing and multiple-tasks-per-sharing are mutually exclusive");
    }
  }

  private static void memBind(OptionValue o, String v) {
    // A comma followed by a digit continues a map or mask list (slurm_verify_mem_bind's rule).
    for (String part : v.split(",(?!\\d)", -1)) {
      String p = part.strip().toLowerCase(Locale.ROOT);
      boolean list = p.matches("(map_mem|mask_mem|map|mask):[0-9a-fx,*]+");
      if (!list && !MEM_BIND.contains(p)) {
        throw o.error("unknown memory binding '" + part + "': use none, local, rank, map_mem:, mask_mem:, sort,"
            + " nosort, prefer, verbose or quiet");
      }
    }
  }

  private static void tresPerTask(OptionValue o, String v) {
    for (String part : v.split(",", -1)) {
      String tres = part.strip().toLowerCase(Locale.ROOT);
      if (tres.isEmpty()) {
        throw o.error("empty element in the TRES list");
      }
      for (String refused : NOT_PER_TASK) {
        if (tres.startsWith(refused)) {
          throw o.error("Invalid TRES for --tres-per-task: " + refused);
        }
      }
    }
  }
}
