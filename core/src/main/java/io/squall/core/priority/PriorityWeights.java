package io.squall.core.priority;

import java.time.Duration;

/**
 * Slurm's PriorityWeight* settings and PriorityMaxAge. Each factor lies in [0, 1] and is
 * multiplied by its weight.
 */
public record PriorityWeights(long age, long fairShare, long jobSize, long partition, long qos, Duration maxAge) {
  /** Weights a site typically starts from: fair-share dominates, age breaks ties over a week. */
  public static PriorityWeights defaults() {
    return new PriorityWeights(1_000, 10_000, 1_000, 1_000, 2_000, Duration.ofDays(7));
  }
}
