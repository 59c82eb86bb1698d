package io.squall.core.utilisation;

import io.squall.core.model.NodeState;
import java.time.Instant;
import java.util.Objects;

/**
 * The cluster's GPUs at one instant, each counted once: held by a job, idle on a node that is up
 * or on its way up (paid for, unused), on a powered-down node (costs nothing), or on a node that
 * is down. The four add up to every GPU of every node.
 *
 * @param idle GPUs no job holds on nodes that are up, booting, draining or powering down
 */
public record GpuSample(Instant at, int allocated, int idle, int poweredDown, int down) {
  public GpuSample {
    Objects.requireNonNull(at, "at");
  }

  /** One node as a sample counts it. */
  public record NodeLoad(NodeState state, int gpus, int gpusAllocated) {
    public NodeLoad {
      Objects.requireNonNull(state, "state");
      if (gpus < 0 || gpusAllocated < 0) {
        throw new IllegalArgumentException("GPU counts cannot be negative: " + gpus + ", " + gpusAllocated);
      }
    }
  }

  /** Counts {@code nodes}' GPUs at {@code at}. */
  public static GpuSample of(Instant at, Iterable<NodeLoad> nodes) {
    int allocated = 0;
    int idle = 0;
    int poweredDown = 0;
    int down = 0;
    for (NodeLoad n : nodes) {
      // A node leaving keeps its jobs' GPUs allocated until they stop; never more than it has.
      int held = Math.min(n.gpusAllocated(), n.gpus());
      allocated += held;
      switch (n.state()) {
        case CLOUD -> poweredDown += n.gpus() - held;
        case DOWN -> down += n.gpus() - held;
        case POWERING_UP, IDLE, MIXED, ALLOCATED, DRAINING, POWERING_DOWN -> idle += n.gpus() - held;
      }
    }
    return new GpuSample(at, allocated, idle, poweredDown, down);
  }
}
