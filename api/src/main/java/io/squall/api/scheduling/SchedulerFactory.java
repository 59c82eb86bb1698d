package io.squall.api.scheduling;

import io.micronaut.context.annotation.Factory;
import io.squall.api.config.BackfillConfig;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.PriorityConfig;
import io.squall.core.priority.UsageMeter;
import io.squall.core.schedule.Scheduler;
import io.squall.core.schedule.SchedulerConfig;
import jakarta.inject.Singleton;

/**
 * The one core scheduler, with the configured priority weights and backfill settings: the loop and
 * --test-only both use it. The loop is started with the controller, so a backfill setting out of
 * range stops start-up. And the usage meter that charges running jobs to fair-share, times their
 * QOS's UsageFactor.
 */
@Factory
public class SchedulerFactory {
  @Singleton
  Scheduler scheduler(PriorityConfig priority, BackfillConfig backfill) {
    return new Scheduler(config(priority, backfill));
  }

  @Singleton
  UsageMeter usageMeter(PriorityConfig priority, ClusterLayout layout) {
    return new UsageMeter(priority.fairSharePolicy(), layout.partitions(), layout.qos());
  }

  /** The scheduler's settings from the configuration (the what-if schedules with the same). */
  public static SchedulerConfig config(PriorityConfig priority, BackfillConfig backfill) {
    SchedulerConfig d = SchedulerConfig.defaults();
    return new SchedulerConfig(priority.weights(), backfill.settings(), d.preemptionDepth(), d.maxSwitchWait(),
        priority.isAccrueAlways(), priority.fairSharePolicy(), priority.isSmallRelativeToTime(),
        priority.isFavorSmall());
  }
}
