package io.squall.core.schedule;

import io.squall.core.model.ClusterSnapshot;
import java.time.Instant;

/**
 * Runs scheduling cycles. Stateless and thread-safe: each call is a pure function of the
 * snapshot and the instant (which the caller takes from its injected clock).
 */
public final class Scheduler {
  private final SchedulerConfig config;

  public Scheduler(SchedulerConfig config) {
    this.config = config;
  }

  /** Decides one cycle. The same snapshot and instant always give an equal plan. */
  public Plan cycle(ClusterSnapshot snapshot, Instant now) {
    return new Cycle(config, snapshot, now).run();
  }
}
