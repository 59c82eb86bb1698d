package io.squall.agent;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The commands a job finds on its PATH, through the wrappers in the agent's {@code bin}:
 * {@code srun}, {@code scontrol show hostnames} and {@code squall checkpoint register}.
 */
public final class Tools {
  private Tools() {}

  public static void main(String[] args) {
    // UTF-8 whatever the locale: task output is relayed as the tasks wrote it.
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    int status = run(Arrays.asList(args), System.getenv(), System.getProperty("user.dir"), out, err);
    out.flush();
    err.flush();
    System.exit(status);
  }

  static int run(List<String> args, Map<String, String> env, String workDir, PrintStream out, PrintStream err) {
    String tool = args.isEmpty() ? "" : args.get(0);
    List<String> rest = args.isEmpty() ? List.of() : args.subList(1, args.size());
    switch (tool) {
      case "srun":
        return SrunCommand.run(rest, env, workDir, out, err);
      case "scontrol":
        return ScontrolCommand.run(rest, env, out, err);
      case "squall":
        return SquallCommand.run(rest, env, workDir, out, err);
      default:
        err.println("usage: " + Tools.class.getName() + " srun|scontrol|squall ARGS...");
        return 2;
    }
  }
}
