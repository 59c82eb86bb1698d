package io.squall.simulate.trace;

/**
 * The gang a job's GPUs make. A gang has the same number of GPUs on every node, so a total that
 * does not divide evenly is rounded up per node: the job is given a few GPUs more than it had,
 * never fewer.
 */
record GangShape(int nodes, int gpusPerNode) {
  /** {@code gpus} on the fewest nodes of {@code nodeGpus} GPUs each (one node when 0). */
  static GangShape packed(int gpus, int nodeGpus) {
    if (nodeGpus < 1) {
      throw new IllegalArgumentException("GPUs per node must be at least 1, got " + nodeGpus);
    }
    return spread(gpus, Math.max(1, ceilDiv(gpus, nodeGpus)));
  }

  /** {@code gpus} over {@code nodes} nodes. */
  static GangShape spread(int gpus, int nodes) {
    if (gpus < 0 || nodes < 1) {
      throw new IllegalArgumentException("need gpus >= 0 and nodes >= 1, got " + gpus + " and " + nodes);
    }
    return new GangShape(nodes, ceilDiv(gpus, nodes));
  }

  private static int ceilDiv(int a, int b) {
    return (int) ((a + (long) b - 1) / b);
  }
}
