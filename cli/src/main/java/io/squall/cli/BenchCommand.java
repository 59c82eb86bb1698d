package io.squall.cli;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code squall bench NAME [--key value ...]}: benchmarks are programs that print their figures. */
final class BenchCommand {
  private static final Set<String> SCHEDULER_OPTIONS = Set.of("nodes", "gpus-per-node", "pending", "seed", "cycles");

  private BenchCommand() {}

  static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty() || !args.get(0).equals("scheduler")) {
      err.println("squall bench: unknown benchmark " + (args.isEmpty() ? "(none)" : "'" + args.get(0) + "'")
          + "; available: scheduler");
      return 2;
    }
    Map<String, String> opts = new HashMap<>();
    for (int i = 1; i < args.size(); i++) {
      String a = args.get(i);
      String key = a.startsWith("--") ? a.substring(2) : a;
      if (!SCHEDULER_OPTIONS.contains(key) || i + 1 >= args.size()) {
        err.println("squall bench scheduler: bad option '" + a + "'; use --nodes --gpus-per-node --pending --seed --cycles"
            + " each with a whole number");
        return 2;
      }
      String value = args.get(++i);
      try {
        if (Long.parseLong(value) < (key.equals("seed") ? Long.MIN_VALUE : 1)) {
          throw new NumberFormatException();
        }
      } catch (NumberFormatException e) {
        err.println("squall bench scheduler: --" + key + " needs a positive whole number, not '" + value + "'");
        return 2;
      }
      opts.put(key, value);
    }
    return SchedulerBench.run(opts, out);
  }
}
