package io.squall.cli;

import java.io.PrintStream;
import java.util.List;

/** {@code squall bench NAME ...}: benchmarks are programs that print their figures. */
final class BenchCommand {
  private BenchCommand() {}

  static int run(List<String> args, PrintStream out, PrintStream err) {
    err.println("squall bench: no benchmark named " + (args.isEmpty() ? "(none)" : args.get(0)));
    return 2;
  }
}
