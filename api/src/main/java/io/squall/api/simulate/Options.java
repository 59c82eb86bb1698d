package io.squall.api.simulate;

import io.squall.simulate.trace.TraceFormat;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code squall simulate}'s command line; anything wrong is refused with the usage. */
record Options(Path trace, TraceFormat format, boolean skipBadRows, List<Path> configs, String partition,
    WhatIfRun.Cloud cloud, long seed, Path json, Path report) {

  static Options parse(String[] args) {
    Path trace = null;
    TraceFormat format = null;
    boolean skip = false;
    List<Path> configs = new ArrayList<>();
    String partition = null;
    Path prices = null;
    double interruptions = 0;
    Path availability = null;
    long seed = 1;
    Path json = null;
    Path report = null;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--skip-bad-rows" -> skip = true;
        case "--trace", "--trace-format", "--config", "--compare", "--partition", "--prices", "--seed", "--json",
            "--interruptions-per-hour", "--availability", "--report" -> {
          if (i + 1 == args.length) {
            throw new IllegalArgumentException(a + " needs a value\n" + WhatIf.USAGE);
          }
          String v = args[++i];
          switch (a) {
            case "--trace" -> trace = Path.of(v);
            case "--trace-format" -> format = TraceFormat.byName(v);
            case "--config" -> configs.add(0, Path.of(v));
            case "--compare" -> configs.add(Path.of(v));
            case "--partition" -> partition = v;
            case "--prices" -> prices = Path.of(v);
            case "--seed" -> seed = seed(v);
            case "--interruptions-per-hour" -> interruptions = rate(v);
            case "--availability" -> availability = Path.of(v);
            case "--report" -> report = Path.of(v);
            default -> json = Path.of(v);
          }
        }
        default -> throw new IllegalArgumentException("unknown option " + a + "\n" + WhatIf.USAGE);
      }
    }
    if (trace == null || format == null || configs.isEmpty()) {
      throw new IllegalArgumentException("--trace, --trace-format and --config are required\n" + WhatIf.USAGE);
    }
    return new Options(trace, format, skip, List.copyOf(configs), partition,
        new WhatIfRun.Cloud(prices, interruptions, availability), seed, json, report);
  }

  private static double rate(String v) {
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--interruptions-per-hour: '" + v + "' is not a number");
    }
  }

  private static long seed(String v) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--seed: '" + v + "' is not a whole number");
    }
  }
}
