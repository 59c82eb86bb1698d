package io.squall.agent;

import java.io.PrintStream;
import java.util.List;
import java.util.Set;

/**
 * srun's command line, the part that matters inside a job here. Options end at the first
 * argument that is not one, or at {@code --}, as with srun's getopt.
 *
 * @param ntasks {@code -n/--ntasks}, or null
 * @param ntasksPerNode {@code --ntasks-per-node}, or null
 * @param nodes {@code -N/--nodes}, or null
 * @param label {@code -l/--label}: prefix each output line with its task's rank
 * @param command the program and its arguments
 */
public record SrunOptions(Integer ntasks, Integer ntasksPerNode, Integer nodes, boolean label, List<String> command) {
  /** Accepted and without effect here: output is always line-flushed, steps never wait for resources. */
  private static final Set<String> QUIET_FLAGS = Set.of("unbuffered", "overlap", "exact");

  /** Accepted with a warning: they tune placement or binding that this scheduler leaves to the job. */
  private static final Set<String> IGNORED_WITH_VALUE = Set.of("cpu-bind", "mpi", "cpus-per-task", "gpus-per-task",
      "gpu-bind", "export", "job-name", "distribution", "mem", "kill-on-bad-exit");

  static SrunOptions parse(List<String> args, PrintStream warnings) throws StepException {
    Integer ntasks = null;
    Integer perNode = null;
    Integer nodes = null;
    boolean label = false;
    int i = 0;
    while (i < args.size()) {
      String arg = args.get(i);
      if (arg.equals("--")) {
        i++;
        break;
      }
      if (!arg.startsWith("-") || arg.equals("-")) {
        break;
      }
      if (arg.startsWith("--")) {
        String name = arg.substring(2);
        String value = null;
        int eq = name.indexOf('=');
        if (eq >= 0) {
          value = name.substring(eq + 1);
          name = name.substring(0, eq);
        }
        if (name.equals("label") || QUIET_FLAGS.contains(name)) {
          label |= name.equals("label");
          i++;
          continue;
        }
        if (name.equals("kill-on-bad-exit") && value == null) {
          warnings.println("srun: warning: --kill-on-bad-exit is ignored here");
          i++;
          continue;
        }
        if (value == null) {
          if (i + 1 >= args.size()) {
            throw new StepException("option '--" + name + "' requires an argument");
          }
          value = args.get(++i);
        }
        switch (name) {
          case "ntasks":
            ntasks = count("--ntasks", value);
            break;
          case "ntasks-per-node":
            perNode = count("--ntasks-per-node", value);
            break;
          case "nodes":
            nodes = nodeCount(value);
            break;
          default:
            if (!IGNORED_WITH_VALUE.contains(name)) {
              throw unknown("--" + name);
            }
            warnings.println("srun: warning: --" + name + "=" + value + " is ignored here");
        }
        i++;
        continue;
      }
      // A cluster of short options: -l, -n4, -N 2, -ln4.
      for (int c = 1; c < arg.length(); c++) {
        char flag = arg.charAt(c);
        if (flag == 'l') {
          label = true;
          continue;
        }
        if (flag == 'u') {
          continue;
        }
        if (flag != 'n' && flag != 'N' && flag != 'c') {
          throw unknown("-" + flag);
        }
        String value = arg.substring(c + 1);
        if (value.isEmpty()) {
          if (i + 1 >= args.size()) {
            throw new StepException("option requires an argument -- '" + flag + "'");
          }
          value = args.get(++i);
        }
        if (flag == 'n') {
          ntasks = count("-n", value);
        } else if (flag == 'N') {
          nodes = nodeCount(value);
        } else {
          warnings.println("srun: warning: -c " + value + " is ignored here");
        }
        break;
      }
      i++;
    }
    List<String> command = List.copyOf(args.subList(i, args.size()));
    if (command.isEmpty()) {
      throw new StepException("no command given to execute");
    }
    return new SrunOptions(ntasks, perNode, nodes, label, command);
  }

  private static StepException unknown(String option) {
    return new StepException("unrecognized option '" + option + "': inside a job here srun takes -n/--ntasks,"
        + " -N/--nodes, --ntasks-per-node and -l/--label");
  }

  private static int count(String option, String text) throws StepException {
    try {
      int n = Integer.parseInt(text.trim());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new StepException("invalid " + option + " '" + text + "': a whole number of at least 1 is needed");
  }

  /** {@code N}, or Slurm's {@code min-max}, of which a step inside a job takes the minimum. */
  private static int nodeCount(String text) throws StepException {
    int dash = text.indexOf('-');
    return count("--nodes", dash > 0 ? text.substring(0, dash) : text);
  }
}
