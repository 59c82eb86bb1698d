package io.squall.cli;

import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import java.util.HashSet;
import java.util.Set;

/**
 * Nodes named on the command line as hostlists ({@code squeue -w}, {@code scancel -w},
 * {@code sacct -N}, {@code sinfo -n}; every use of the option counts), and whether a job's node
 * list meets them.
 */
record NodeNames(Set<String> names) {
  /**
   * @param error the message for a hostlist that cannot be read, given the value as typed
   * @return the names, or null when the option was not given
   */
  static NodeNames of(Getopt.Parsed args, String option, java.util.function.Function<String, String> error) {
    if (!args.has(option)) {
      return null;
    }
    Set<String> names = new HashSet<>();
    for (String value : args.values().get(option)) {
      try {
        names.addAll(Hostlist.expand(value));
      } catch (HostlistException e) {
        throw new UsageException(error.apply(value));
      }
    }
    return new NodeNames(Set.copyOf(names));
  }

  boolean contains(String node) {
    return names.contains(node);
  }

  /** Whether {@code hostlist} (a job's nodes) names one of these; a job on no node, or unreadable ones, does not. */
  boolean meets(String hostlist) {
    if (hostlist == null || hostlist.isBlank()) {
      return false;
    }
    try {
      return Hostlist.expand(hostlist).stream().anyMatch(names::contains);
    } catch (HostlistException e) {
      return false;
    }
  }
}
