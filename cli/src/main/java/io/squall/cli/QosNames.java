package io.squall.cli;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * QOS named on the command line ({@code squeue -q}, {@code scancel -q}, {@code sacct -q}; every
 * use of the option counts), matched in any case, as Slurm stores QOS names in lower case.
 */
record QosNames(Set<String> names) {
  /** @return the names, or null when the option was not given */
  static QosNames of(Getopt.Parsed args, String option) {
    if (!args.has(option)) {
      return null;
    }
    Set<String> names = new HashSet<>();
    args.list(option).forEach(q -> names.add(q.toLowerCase(Locale.ROOT)));
    return new QosNames(Set.copyOf(names));
  }

  /** Whether a job's QOS is one of these; a job without one is not. */
  boolean contains(String qos) {
    return qos != null && names.contains(qos.toLowerCase(Locale.ROOT));
  }
}
