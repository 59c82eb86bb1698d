package io.squall.cli;

import io.squall.core.sbatch.CommandLine;
import io.squall.core.sbatch.SbatchException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * An srun or salloc command line: the options that shape the allocation, which are sbatch's and go
 * to the service as typed (one parser, as for sbatch), srun's own options, which this client acts
 * on, and the command with its arguments. Options end at the first word that is not one, or at
 * {@code --}, as with Slurm's getopt.
 *
 * @param options the allocation's sbatch options, as typed
 * @param label srun's {@code -l/--label}
 * @param ignored srun's options that change nothing here, for a warning
 * @param command the program and its arguments; empty when none was given
 */
record InteractiveLine(List<String> options, boolean label, List<String> ignored, List<String> command) {
  /** srun's flags that change nothing here: output is always line-flushed, steps never wait for resources. */
  private static final Set<String> QUIET_FLAGS = Set.of("--unbuffered", "-u", "--overlap", "--exact");
  /** srun's options with a value that tune placement or binding this scheduler leaves to the job. */
  private static final Set<String> IGNORED_WITH_VALUE = Set.of("--cpu-bind", "--mpi", "--gpu-bind",
      "--distribution", "--kill-on-bad-exit");

  InteractiveLine {
    options = List.copyOf(options);
    ignored = List.copyOf(ignored);
    command = List.copyOf(command);
  }

  /** @throws UsageException for an option neither srun nor sbatch has, or one without its value */
  static InteractiveLine parse(List<String> words, boolean srun) {
    List<String> rest = new ArrayList<>();
    List<String> ignored = new ArrayList<>();
    boolean label = false;
    int i = 0;
    for (; i < words.size(); i++) {
      String w = words.get(i);
      if (w.equals("--") || !w.startsWith("-") || w.equals("-")) {
        break;
      }
      String name = w.contains("=") ? w.substring(0, w.indexOf('=')) : w;
      if (srun && (w.equals("-l") || w.equals("--label"))) {
        label = true;
      } else if (srun && QUIET_FLAGS.contains(w)) {
        continue;
      } else if (srun && w.equals("--pty")) {
        ignored.add("--pty (no pseudo-terminal: the tasks' output is relayed line by line)");
      } else if (srun && IGNORED_WITH_VALUE.contains(name)) {
        ignored.add(w);
        if (!w.contains("=") && !name.equals("--kill-on-bad-exit")) {
          i++; // its value goes too
        }
      } else if (srun && w.matches("-[lu]+[A-Za-z].*")) {
        // A short cluster that starts with srun's own flags: -ln4 is -l -n4.
        int k = 1;
        while (w.charAt(k) == 'l' || w.charAt(k) == 'u') {
          label |= w.charAt(k) == 'l';
          k++;
        }
        i = addOption(words, i, "-" + w.substring(k), rest);
      } else if (w.equals("--test-only")) {
        throw new UsageException("--test-only is not built for srun and salloc here: sbatch --test-only says when"
            + " and where the same request would start");
      } else {
        i = addOption(words, i, w, rest);
      }
    }
    if (i < words.size() && words.get(i).equals("--")) {
      i++;
    }
    return new InteractiveLine(rest, label, ignored, words.subList(i, words.size()));
  }

  /** Adds an sbatch option (and its separate value); answers the index of its last word. */
  private static int addOption(List<String> words, int i, String option, List<String> into) {
    CommandLine split;
    try {
      // Core's splitter knows which sbatch options take a separate value: one that does takes
      // the placeholder as it, one that does not leaves it as the command.
      split = CommandLine.split(List.of(option, "command"));
    } catch (SbatchException e) {
      throw new UsageException(e.getMessage(), true);
    }
    into.add(option);
    if (split.options().size() == 1) {
      return i;
    }
    if (i + 1 >= words.size()) {
      throw new UsageException("option '" + option + "' requires an argument", true);
    }
    into.add(words.get(i + 1));
    return i + 1;
  }

  /** {@code -n/--ntasks}, or null. */
  Integer ntasks() {
    return count(value("-n", "--ntasks"), "--ntasks");
  }

  /** {@code --ntasks-per-node}, or null. */
  Integer ntasksPerNode() {
    return count(value(null, "--ntasks-per-node"), "--ntasks-per-node");
  }

  /** {@code -N/--nodes} when it is one count (a range leaves the step to the allocation's nodes), or null. */
  Integer nodes() {
    String v = value("-N", "--nodes");
    return v == null || v.contains("-") ? null : count(v, "--nodes");
  }

  /** {@code --export}, or null (ALL, srun's default). */
  String export() {
    return value(null, "--export");
  }

  /** Options that set the job's GPUs: inside an allocation a step sees its nodes' GPUs whatever they say. */
  List<String> gpuOptions() {
    List<String> found = new ArrayList<>();
    for (String o : options) {
      if (o.startsWith("--gres") || o.startsWith("--gpus") || o.startsWith("-G")) {
        found.add(o);
      }
    }
    return found;
  }

  /** The last value given to the option (its last word wins, as with getopt). */
  private String value(String shortName, String longName) {
    String found = null;
    for (int i = 0; i < options.size(); i++) {
      String o = options.get(i);
      if (o.startsWith(longName + "=")) {
        found = o.substring(longName.length() + 1);
      } else if (o.equals(longName) || o.equals(shortName)) {
        found = i + 1 < options.size() ? options.get(++i) : null;
      } else if (shortName != null && o.startsWith(shortName) && o.length() > 2) {
        found = o.substring(2);
      }
    }
    return found;
  }

  private static Integer count(String text, String option) {
    if (text == null) {
      return null;
    }
    try {
      int n = Integer.parseInt(text.trim());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below.
    }
    throw new UsageException("invalid " + option + " '" + text + "': a whole number of at least 1 is needed");
  }
}
