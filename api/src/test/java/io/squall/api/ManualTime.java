package io.squall.api;

import io.squall.api.jobs.LaunchDeliveries;
import io.squall.api.scheduling.Ticker;
import io.squall.api.state.StateWriter;
import io.squall.core.time.ManualClock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.function.Supplier;

/**
 * A controller's time under {@code squall.ticks: manual}: the test moves its clock and ticks (a
 * scheduler cycle, the drain and the fleet at one instant), so nothing it decides by time is
 * slept or polled for.
 */
public record ManualTime(Ticker ticker, ManualClock clock, LaunchDeliveries deliveries, StateWriter writer) {
  public static ManualTime of(Controllers.Running c) {
    return new ManualTime(c.bean(Ticker.class), (ManualClock) c.bean(InstantSource.class),
        c.bean(LaunchDeliveries.class), c.bean(StateWriter.class));
  }

  public void tick() {
    ticker.tick();
  }

  /** Moves the clock on by {@code d}, then ticks. */
  public void tickAfter(Duration d) {
    clock.advance(d);
    ticker.tick();
  }

  /** A cycle allocates what was submitted; {@code batchWindow} later the fleet launches it. */
  public void allocateAndLaunch(Duration batchWindow) {
    tick();
    tickAfter(batchWindow);
  }

  /**
   * Waits until the job's launch has come back to the controller (on a busy machine the answer
   * can come after the agent has recorded the call), the clock a little on: what a node reports
   * counts from then.
   */
  public void awaitLaunchBack(String job) {
    Poll.until("the launch back", Duration.ofSeconds(60), () -> {
      clock.advance(Duration.ofMillis(1));
      return deliveries.backBefore(writer.state().jobsNamed(Long.parseLong(job)).iterator().next(), clock.instant());
    });
  }

  /**
   * Waits for what real processes do (agents registering, jobs running and ending): each probe
   * first moves the clock on by the probe's own 100 ms and ticks, so batch windows pass and
   * heartbeats stay fresh, and nothing is decided by the wall clock.
   */
  public <T> T until(String what, Duration timeout, Supplier<T> probe) {
    return Poll.until(what, timeout, () -> {
      tickAfter(Duration.ofMillis(100));
      return probe.get();
    });
  }
}
