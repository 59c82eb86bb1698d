package io.squall.cli;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** {@code squall bench NAME [--key value ...]}: benchmarks are programs that print their figures. */
final class BenchCommand {
  /** Each benchmark's options, in the order the usage message names them. */
  private static final Map<String, List<String>> OPTIONS = new LinkedHashMap<>();

  static {
    OPTIONS.put("scheduler", List.of("nodes", "gpus-per-node", "pending", "seed", "cycles"));
    OPTIONS.put("api", List.of("jobs", "clients", "server-pid"));
    OPTIONS.put("elastic", List.of("pending", "nodes", "seed", "scheduler-interval", "on-demand-after"));
    OPTIONS.put("interruptions", List.of("jobs", "nodes", "seed", "interruptions-per-hour"));
    OPTIONS.put("deadline", List.of("jobs", "seed"));
    OPTIONS.put("budget", List.of("seed"));
    OPTIONS.put("small-jobs", List.of("scheduler-interval", "jobs", "first", "time-squeeze", "arrival-squeeze",
        "write-trace", "write-cluster", "write-jobs", "priority", "weight-job-size", "favor-small"));
    OPTIONS.put("cli", List.of("calls", "bin"));
  }

  /** The least --nodes of the benchmarks whose workload needs some (both sample the Philly trace). */
  private static final Map<String, Integer> MIN_NODES =
      Map.of("elastic", ElasticBench.MIN_NODES, "interruptions", ElasticBench.MIN_NODES);
  /** Options where 0 makes sense (a wait that may be none, the first job of a trace). */
  private static final Set<String> MAY_BE_ZERO = Set.of("on-demand-after", "first");
  /** Options that take a file name. */
  private static final Set<String> FILES = Set.of("write-trace", "write-cluster", "write-jobs", "bin");
  /** Options that take one of a few words, the first the default. */
  private static final Map<String, List<String>> CHOICES = Map.of("priority",
      List.of("multifactor", "fifo", "small-relative-to-time"), "favor-small", List.of("no", "yes"));
  /** Options that take a decimal number (a rate), from 0 to {@link #MAX_RATE}. */
  private static final Set<String> DECIMALS = Set.of("interruptions-per-hour");
  /** Beyond this many interruptions per node-hour a spot node lives less than a minute on average. */
  private static final BigDecimal MAX_RATE = BigDecimal.valueOf(60);
  private static final Pattern DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]*)?|\\.[0-9]+");

  private BenchCommand() {}

  static int run(List<String> args, Invocation io) throws InterruptedException {
    PrintStream err = io.err();
    String name = args.isEmpty() ? "" : args.get(0);
    List<String> allowed = OPTIONS.get(name);
    if (allowed == null) {
      err.println("squall bench: unknown benchmark " + (args.isEmpty() ? "(none)" : "'" + name + "'")
          + "; available: " + String.join(", ", OPTIONS.keySet()));
      return 2;
    }
    Map<String, String> opts = new HashMap<>();
    for (int i = 1; i < args.size(); i++) {
      String a = args.get(i);
      String key = a.startsWith("--") ? a.substring(2) : a;
      if (!allowed.contains(key) || i + 1 >= args.size()) {
        err.println("squall bench " + name + ": bad option '" + a + "'; use " + usage(allowed));
        return 2;
      }
      String value = args.get(++i);
      String problem = problem(name, key, value);
      if (problem != null) {
        err.println("squall bench " + name + ": --" + key + " needs " + problem + ", not '" + value + "'");
        return 2;
      }
      opts.put(key, value);
    }
    return switch (name) {
      case "elastic" -> ElasticBench.run(opts, io.out());
      case "interruptions" -> InterruptionBench.run(opts, io.out());
      case "deadline" -> DeadlineBench.run(opts, io.out());
      case "budget" -> BudgetBench.run(opts, io.out());
      case "small-jobs" -> SmallJobsBench.run(opts, io.cwd(), io.out(), err);
      case "api" -> ApiBench.run(opts, io.env(), io.out(), err);
      case "cli" -> CliBench.run(opts, io);
      default -> SchedulerBench.run(opts, io.out());
    };
  }

  private static String usage(List<String> allowed) {
    List<String> whole = allowed.stream()
        .filter(k -> !DECIMALS.contains(k) && !FILES.contains(k) && !CHOICES.containsKey(k)).toList();
    List<String> decimal = allowed.stream().filter(DECIMALS::contains).toList();
    List<String> files = allowed.stream().filter(FILES::contains).toList();
    String out = "--" + String.join(" --", whole) + " each with a whole number";
    out = decimal.isEmpty() ? out : out + ", --" + String.join(" --", decimal) + " with a decimal number";
    out = files.isEmpty() ? out : out + ", --" + String.join(" --", files) + " with a file name";
    for (String k : allowed) {
      if (CHOICES.containsKey(k)) {
        out += ", --" + k + " " + String.join("|", CHOICES.get(k));
      }
    }
    return out;
  }

  /** What is wrong with the value (what it needs), or null: what the benchmarks read must parse. */
  private static String problem(String bench, String key, String value) {
    if (FILES.contains(key)) {
      return value.isEmpty() ? "a file name" : null;
    }
    if (CHOICES.containsKey(key)) {
      return CHOICES.get(key).contains(value) ? null : String.join(" or ", CHOICES.get(key));
    }
    if (DECIMALS.contains(key)) {
      boolean ok = DECIMAL.matcher(value).matches() && new BigDecimal(value).compareTo(MAX_RATE) <= 0;
      return ok ? null : "a decimal number from 0 to " + MAX_RATE + " (per spot node-hour, e.g. 0.5)";
    }
    if (key.equals("seed")) {
      try {
        Long.parseLong(value);
        return null;
      } catch (NumberFormatException e) {
        return "a whole number";
      }
    }
    int least = MAY_BE_ZERO.contains(key) ? 0 : 1;
    try {
      int n = Integer.parseInt(value);
      Integer minNodes = key.equals("nodes") ? MIN_NODES.get(bench) : null;
      if (n >= least && minNodes != null && n < minNodes) {
        return "at least " + minNodes + " (the trace's largest jobs take " + minNodes + " nodes)";
      }
      if (n >= least) {
        return null;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    return "a " + (least == 0 ? "non-negative" : "positive") + " whole number";
  }
}
