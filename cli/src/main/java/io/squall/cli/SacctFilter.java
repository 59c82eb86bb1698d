package io.squall.cli;

import io.squall.cli.service.AccountingJob;
import java.util.List;
import java.util.Set;

/**
 * The sacct filters the service's accounting query does not take, applied to the records it
 * returns: {@code --name}, {@code -r/--partition} (a job submitted to several counts in each),
 * {@code -q/--qos} (in any case, as Slurm names QOS) and {@code -N/--nodelist} (jobs that ran on
 * any of the nodes). Each takes a comma-separated list; a filter not given keeps every record.
 */
record SacctFilter(Set<String> names, Set<String> partitions, QosNames qos, NodeNames nodes) {
  static SacctFilter of(Getopt.Parsed args) {
    NodeNames nodes = NodeNames.of(args, "nodelist", value -> "Invalid node list: " + value);
    return new SacctFilter(set(args, "name"), set(args, "partition"), QosNames.of(args, "qos"), nodes);
  }

  private static Set<String> set(Getopt.Parsed args, String option) {
    return args.has(option) ? Set.copyOf(args.list(option)) : null;
  }

  boolean keeps(AccountingJob j) {
    return (names == null || names.contains(j.name()))
        && (partitions == null || (j.partition() != null && List.of(j.partition().split(",")).stream()
            .anyMatch(partitions::contains)))
        && (qos == null || qos.contains(j.qos()))
        && (nodes == null || nodes.meets(j.nodes()));
  }
}
