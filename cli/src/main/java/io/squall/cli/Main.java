package io.squall.cli;

import java.time.InstantSource;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;

/** The single entry point behind {@code bin/squall}: dispatches to one command per verb. */
public final class Main {
  private static final String USAGE = """
      usage: squall COMMAND [ARGS...]
        sbatch --parse-only FILE [OPTIONS...]   validate a batch script, print the request as JSON
        bench scheduler [--nodes N] [--gpus-per-node G] [--pending P] [--seed S] [--cycles C]
                                                run full scheduling cycles on a synthetic cluster""";

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(Arrays.asList(args)));
  }

  static int run(List<String> args) {
    if (args.isEmpty()) {
      System.err.println(USAGE);
      return 2;
    }
    List<String> rest = args.subList(1, args.size());
    switch (args.get(0)) {
      case "sbatch":
        return new SbatchCommand(InstantSource.system(), ZoneId.systemDefault(), System.in, System.out, System.err)
            .run(rest);
      case "bench":
        return BenchCommand.run(rest, System.out, System.err);
      case "help":
      case "--help":
      case "-h":
        System.out.println(USAGE);
        return 0;
      default:
        System.err.println("squall: unknown command '" + args.get(0) + "'\n" + USAGE);
        return 2;
    }
  }
}
