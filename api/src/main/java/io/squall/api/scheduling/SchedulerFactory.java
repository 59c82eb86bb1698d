package io.squall.api.scheduling;

import io.micronaut.context.annotation.Factory;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.PriorityConfig;
import io.squall.core.priority.UsageMeter;
import io.squall.core.schedule.Scheduler;
import io.squall.core.schedule.SchedulerConfig;
import jakarta.inject.Singleton;

/**
 * The one core scheduler, with the configured priority weights: the loop and --test-only both use
 * it; and the usage meter that charges running jobs to fair-share.
 */
@Factory
public class SchedulerFactory {
  @Singleton
  Scheduler scheduler(PriorityConfig priority) {
    return new Scheduler(config(priority));
  }

  @Singleton
  UsageMeter usageMeter(PriorityConfig priority, ClusterLayout layout) {
    return new UsageMeter(priority.fairSharePolicy(), layout.partitions());
  }

  /** The scheduler's settings from the configuration (the what-if schedules with the same). */
  public static SchedulerConfig config(PriorityConfig priority) {
    SchedulerConfig d = SchedulerConfig.defaults();
    return new SchedulerConfig(priority.weights(), d.reservationDepth(), d.preemptionDepth(), d.maxSwitchWait(),
        priority.isAccrueAlways(), priority.fairSharePolicy());
  }
}
