package io.squall.core.schedule;

import io.squall.core.priority.PriorityWeights;
import java.time.Duration;

/**
 * Tunables of a cycle.
 *
 * @param backfill how far ahead, how finely and for how many blocked jobs reservations are planned
 * @param preemptionDepth how many blocked jobs may look for preemption victims per cycle
 * @param maxSwitchWait how long {@code --switches} waits by default (Slurm's max_switch_wait)
 * @param accrueAlways Slurm's PriorityFlags=ACCRUE_ALWAYS: a job's age counts from its submission,
 *     held, before its begin time or waiting on a dependency as well; off: from when it became
 *     eligible (Slurm's default)
 */
public record SchedulerConfig(PriorityWeights weights, Backfill backfill, int preemptionDepth,
    Duration maxSwitchWait, boolean accrueAlways) {
  public static SchedulerConfig defaults() {
    return new SchedulerConfig(PriorityWeights.defaults(), Backfill.defaults(), 16, Duration.ofMinutes(5), false);
  }

  public SchedulerConfig withBackfill(Backfill backfill) {
    return new SchedulerConfig(weights, backfill, preemptionDepth, maxSwitchWait, accrueAlways);
  }

  public SchedulerConfig withAccrueAlways(boolean always) {
    return new SchedulerConfig(weights, backfill, preemptionDepth, maxSwitchWait, always);
  }
}
