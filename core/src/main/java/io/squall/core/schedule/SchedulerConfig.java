package io.squall.core.schedule;

import io.squall.core.priority.FairSharePolicy;
import io.squall.core.priority.PriorityWeights;
import java.time.Duration;

/**
 * Tunables of a cycle.
 *
 * @param reservationDepth how many blocked jobs get a backfill reservation (Slurm's
 *     bf_max_job_test in spirit); jobs below that depth only start if they fit around them
 * @param preemptionDepth how many blocked jobs may look for preemption victims per cycle
 * @param maxSwitchWait how long {@code --switches} waits by default (Slurm's max_switch_wait)
 * @param accrueAlways Slurm's PriorityFlags=ACCRUE_ALWAYS: a job's age counts from its submission,
 *     held, before its begin time or waiting on a dependency as well; off: from when it became
 *     eligible (Slurm's default)
 * @param fairShare the fair-share algorithm, and how usage is charged and decayed (the cycle reads
 *     usage as charged; {@link io.squall.core.priority.UsageMeter} charges it)
 */
public record SchedulerConfig(PriorityWeights weights, int reservationDepth, int preemptionDepth,
    Duration maxSwitchWait, boolean accrueAlways, FairSharePolicy fairShare) {
  public static SchedulerConfig defaults() {
    return new SchedulerConfig(PriorityWeights.defaults(), 100, 16, Duration.ofMinutes(5), false,
        FairSharePolicy.defaults());
  }

  public SchedulerConfig withReservationDepth(int depth) {
    return new SchedulerConfig(weights, depth, preemptionDepth, maxSwitchWait, accrueAlways, fairShare);
  }

  public SchedulerConfig withAccrueAlways(boolean always) {
    return new SchedulerConfig(weights, reservationDepth, preemptionDepth, maxSwitchWait, always, fairShare);
  }

  public SchedulerConfig withFairShare(FairSharePolicy policy) {
    return new SchedulerConfig(weights, reservationDepth, preemptionDepth, maxSwitchWait, accrueAlways, policy);
  }
}
