package io.squall.cli;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code squall bench NAME [--key value ...]}: benchmarks are programs that print their figures. */
final class BenchCommand {
  private static final Set<String> SCHEDULER_OPTIONS = Set.of("nodes", "gpus-per-node", "pending", "seed", "cycles");
  private static final Set<String> API_OPTIONS = Set.of("jobs", "clients");
  private static final Set<String> ELASTIC_OPTIONS = Set.of("pending", "nodes", "seed", "scheduler-interval",
      "on-demand-after");
  /** Options where 0 makes sense (a wait that may be none). */
  private static final Set<String> MAY_BE_ZERO = Set.of("on-demand-after");

  private BenchCommand() {}

  static int run(List<String> args, Invocation io) throws InterruptedException {
    PrintStream err = io.err();
    String name = args.isEmpty() ? "" : args.get(0);
    Set<String> allowed = name.equals("scheduler") ? SCHEDULER_OPTIONS : name.equals("api") ? API_OPTIONS
        : name.equals("elastic") ? ELASTIC_OPTIONS : null;
    if (allowed == null) {
      err.println("squall bench: unknown benchmark " + (args.isEmpty() ? "(none)" : "'" + name + "'")
          + "; available: scheduler, api, elastic");
      return 2;
    }
    Map<String, String> opts = new HashMap<>();
    for (int i = 1; i < args.size(); i++) {
      String a = args.get(i);
      String key = a.startsWith("--") ? a.substring(2) : a;
      if (!allowed.contains(key) || i + 1 >= args.size()) {
        err.println("squall bench " + name + ": bad option '" + a + "'; use --" + String.join(" --", allowed)
            + " each with a whole number");
        return 2;
      }
      String value = args.get(++i);
      boolean seed = key.equals("seed");
      try {
        // What the benchmarks read: a seed is a long, anything else a positive int (or 0 for a wait).
        if (seed) {
          Long.parseLong(value);
        } else if (Integer.parseInt(value) < (MAY_BE_ZERO.contains(key) ? 0 : 1)) {
          throw new NumberFormatException();
        }
      } catch (NumberFormatException e) {
        String kind = seed ? "" : MAY_BE_ZERO.contains(key) ? "non-negative " : "positive ";
        err.println("squall bench " + name + ": --" + key + " needs a " + kind + "whole number, not '" + value + "'");
        return 2;
      }
      opts.put(key, value);
    }
    if (name.equals("elastic")) {
      return ElasticBench.run(opts, io.out());
    }
    return name.equals("api") ? ApiBench.run(opts, io.env(), io.out(), err) : SchedulerBench.run(opts, io.out());
  }
}
