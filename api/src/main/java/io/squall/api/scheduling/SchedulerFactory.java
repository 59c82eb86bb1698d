package io.squall.api.scheduling;

import io.micronaut.context.annotation.Factory;
import io.squall.api.config.PriorityConfig;
import io.squall.core.schedule.Scheduler;
import io.squall.core.schedule.SchedulerConfig;
import jakarta.inject.Singleton;

/** The one core scheduler, with the configured priority weights: the loop and --test-only both use it. */
@Factory
public class SchedulerFactory {
  @Singleton
  Scheduler scheduler(PriorityConfig priority) {
    return new Scheduler(config(priority));
  }

  /** The scheduler's settings from the configuration (the what-if schedules with the same). */
  public static SchedulerConfig config(PriorityConfig priority) {
    SchedulerConfig d = SchedulerConfig.defaults();
    return new SchedulerConfig(priority.weights(), d.backfill(), d.preemptionDepth(), d.maxSwitchWait(),
        priority.isAccrueAlways());
  }
}
