package io.squall.core.schedule;

import io.squall.core.priority.FairSharePolicy;
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
 * @param fairShare the fair-share algorithm, and how usage is charged and decayed (the cycle reads
 *     usage as charged; {@link io.squall.core.priority.UsageMeter} charges it)
 * @param smallRelativeToTime Slurm's PriorityFlags=SMALL_RELATIVE_TO_TIME: the job size factor is
 *     the job's size divided by its time limit in minutes, so that short jobs rank above long ones
 *     of the same size; off: its size alone (Slurm's default)
 * @param favorSmall Slurm's PriorityFavorSmall=YES: the job size factor is 1 minus the above, so the
 *     smaller (or, with {@code smallRelativeToTime}, the smaller per minute of limit) the job, the
 *     greater it; off: larger jobs rank higher (Slurm's default)
 */
public record SchedulerConfig(PriorityWeights weights, Backfill backfill, int preemptionDepth,
    Duration maxSwitchWait, boolean accrueAlways, FairSharePolicy fairShare, boolean smallRelativeToTime,
    boolean favorSmall) {
  public static SchedulerConfig defaults() {
    return new SchedulerConfig(PriorityWeights.defaults(), Backfill.defaults(), 16, Duration.ofMinutes(5), false,
        FairSharePolicy.defaults(), false, false);
  }

  public SchedulerConfig withWeights(PriorityWeights w) {
    return new SchedulerConfig(w, backfill, preemptionDepth, maxSwitchWait, accrueAlways, fairShare,
        smallRelativeToTime, favorSmall);
  }

  public SchedulerConfig withBackfill(Backfill b) {
    return new SchedulerConfig(weights, b, preemptionDepth, maxSwitchWait, accrueAlways, fairShare,
        smallRelativeToTime, favorSmall);
  }

  public SchedulerConfig withAccrueAlways(boolean always) {
    return new SchedulerConfig(weights, backfill, preemptionDepth, maxSwitchWait, always, fairShare,
        smallRelativeToTime, favorSmall);
  }

  public SchedulerConfig withFairShare(FairSharePolicy policy) {
    return new SchedulerConfig(weights, backfill, preemptionDepth, maxSwitchWait, accrueAlways, policy,
        smallRelativeToTime, favorSmall);
  }

  public SchedulerConfig withSmallRelativeToTime(boolean relative) {
    return new SchedulerConfig(weights, backfill, preemptionDepth, maxSwitchWait, accrueAlways, fairShare, relative,
        favorSmall);
  }

  public SchedulerConfig withFavorSmall(boolean small) {
    return new SchedulerConfig(weights, backfill, preemptionDepth, maxSwitchWait, accrueAlways, fairShare,
        smallRelativeToTime, small);
  }
}
