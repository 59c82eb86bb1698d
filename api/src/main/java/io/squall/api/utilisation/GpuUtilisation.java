package io.squall.api.utilisation;

import io.squall.api.state.NodeOccupancy;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.core.model.NodeState;
import io.squall.core.utilisation.GpuHistory;
import io.squall.core.utilisation.GpuSample;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The controller's GPU counts over time: the ticker offers the committed state at each tick and
 * core's {@link GpuHistory} keeps one sample per {@code squall.utilisation.interval}.
 *
 * <p>Thread-safe: the fleet's thread samples, request threads read.
 */
@Singleton
public final class GpuUtilisation {
  private final StateWriter writer;
  private final GpuHistory history;

  public GpuUtilisation(StateWriter writer, UtilisationConfig config) {
    this.writer = writer;
    try {
      this.history = new GpuHistory(config.getInterval(), config.getKeep());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("squall.utilisation.interval / keep: " + e.getMessage(), e);
    }
  }

  /** Counts the GPUs at {@code now} when a sample is due. */
  public synchronized void sample(Instant now) {
    if (!history.due(now)) {
      return;
    }
    NodeOccupancy occupancy = NodeOccupancy.of(writer.state());
    List<GpuSample.NodeLoad> loads = new ArrayList<>();
    for (NodeStatus n : writer.state().nodes()) {
      loads.add(new GpuSample.NodeLoad(NodeState.valueOf(occupancy.state(n)), n.node().gpus(),
          occupancy.gpusUsed(n.name())));
    }
    history.offer(GpuSample.of(now, loads));
  }

  public synchronized List<GpuSample> since(Instant since) {
    return history.since(since);
  }

  public double intervalSeconds() {
    return history.interval().toMillis() / 1000.0;
  }
}
