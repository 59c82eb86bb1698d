package io.squall.simulate.trace;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * What some formats need to be told because their traces do not say it.
 *
 * @param zone the zone of times written without one: sacct's Submit (the zone of the machine that
 *     ran sacct) and Philly's submitted_time
 * @param procsPerGpu SWF only: processors that make one GPU, at least 1
 * @param nodeGpus GPUs on one node, at least 1, for formats that record a job's GPUs but not its
 *     nodes (SWF, Philly): the job is packed on the fewest such nodes
 */
public record TraceOptions(ZoneId zone, int procsPerGpu, int nodeGpus) {
  /** UTC, one GPU per processor, nodes of 8 GPUs (an H100 node's). */
  public static final TraceOptions DEFAULTS = new TraceOptions(ZoneOffset.UTC, 1, 8);

  public TraceOptions {
    Objects.requireNonNull(zone, "zone");
    if (procsPerGpu < 1) {
      throw new IllegalArgumentException("processors per GPU must be at least 1, got " + procsPerGpu);
    }
    if (nodeGpus < 1) {
      throw new IllegalArgumentException("GPUs per node must be at least 1, got " + nodeGpus);
    }
  }

  public TraceOptions withZone(ZoneId newZone) {
    return new TraceOptions(newZone, procsPerGpu, nodeGpus);
  }

  public TraceOptions withProcsPerGpu(int newProcsPerGpu) {
    return new TraceOptions(zone, newProcsPerGpu, nodeGpus);
  }

  public TraceOptions withNodeGpus(int newNodeGpus) {
    return new TraceOptions(zone, procsPerGpu, newNodeGpus);
  }
}
