package io.squall.cli;

import io.squall.cli.service.NodeInfo;
import io.squall.cli.service.PartitionInfo;
import java.util.List;

/**
 * One sinfo line: a partition and the nodes it covers that look alike in every printed field
 * (one node with {@code -N}, none for an empty partition).
 */
record SinfoRow(PartitionInfo partition, List<NodeInfo> nodes) {
  SinfoRow {
    nodes = List.copyOf(nodes);
  }

  /** The node whose attributes stand for the line (all nodes of a line print alike); null when empty. */
  NodeInfo first() {
    return nodes.isEmpty() ? null : nodes.get(0);
  }
}
