package io.squall.api.scheduling;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import io.squall.api.config.SquallConfig;
import io.squall.api.fleet.ElasticFleet;
import io.squall.api.spot.InterruptionResponder;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One clock source for the service's periodic decisions, each at the controller's clock on its
 * own thread: a scheduler cycle ({@link SchedulerLoop#tick}) every {@code
 * squall.scheduler-interval}, and every 250 ms the drain ({@link InterruptionResponder#tick}) and
 * the elastic fleet ({@link ElasticFleet#tick}). Separate threads, so that a slow provider call
 * never delays stopping a job before its machine goes, nor a cycle; what one tells another goes
 * through inboxes (and the scheduler's wake-ups). With {@code squall.ticks: manual} nothing ticks
 * by itself: a test moves the {@code ManualClock} and calls {@link #tick()}, which runs a
 * scheduler cycle, the drain and the fleet in turn at one instant, so that service tests drive
 * time instead of sleeping and polling.
 */
@Context
public final class Ticker implements ApplicationEventListener<ServerStartupEvent> {
  private static final Logger LOG = LoggerFactory.getLogger(Ticker.class);
  static final Duration PERIOD = Duration.ofMillis(250);

  private final ScheduledExecutorService schedulerThread = thread("squall-scheduler-tick");
  private final ScheduledExecutorService spot = thread("squall-spot");
  private final ScheduledExecutorService fleetThread = thread("squall-fleet");
  private final InterruptionResponder drains;
  private final ElasticFleet fleet;
  private final SchedulerLoop scheduler;
  private final InstantSource clock;
  private final boolean manual;
  private final Duration schedulerInterval;

  public Ticker(InterruptionResponder drains, ElasticFleet fleet, SchedulerLoop scheduler, InstantSource clock,
      SquallConfig config) {
    this.drains = drains;
    this.fleet = fleet;
    this.scheduler = scheduler;
    this.clock = clock;
    this.manual = config.manualTicks();
    this.schedulerInterval = config.getSchedulerInterval();
  }

  private static ScheduledExecutorService thread(String name) {
    return Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
  }

  @Override
  public void onApplicationEvent(ServerStartupEvent event) {
    if (!manual) {
      long interval = schedulerInterval.toMillis();
      schedulerThread.scheduleWithFixedDelay(() -> scheduler(clock.instant()), interval, interval,
          TimeUnit.MILLISECONDS);
      spot.scheduleWithFixedDelay(() -> drains(clock.instant()), PERIOD.toMillis(), PERIOD.toMillis(),
          TimeUnit.MILLISECONDS);
      fleetThread.scheduleWithFixedDelay(() -> fleet(clock.instant()), PERIOD.toMillis(), PERIOD.toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  /**
   * With {@code squall.ticks: manual}: a scheduler cycle, then the drain and the fleet, at the
   * clock's instant; returns when all are done (their changes committed). Not with automatic ticks.
   */
  public void tick() {
    if (!manual) {
      throw new IllegalStateException("ticks are automatic (squall.ticks: auto)");
    }
    Instant now = clock.instant();
    scheduler(now);
    drains(now);
    fleet(now);
  }

  private void scheduler(Instant now) {
    try {
      scheduler.tick(now);
    } catch (RuntimeException e) {
      LOG.warn("scheduler tick failed; will try again", e);
    }
  }

  private void drains(Instant now) {
    try {
      drains.tick(now);
    } catch (RuntimeException e) {
      LOG.warn("interruption handling failed; will try again", e);
    }
  }

  private void fleet(Instant now) {
    try {
      fleet.tick(now);
    } catch (RuntimeException e) {
      LOG.warn("elastic fleet tick failed; will try again", e);
    }
  }

  /**
   * Lets the current tick finish before the application (and its database) goes: an interrupt
   * could land in the middle of a database write, and H2 closes its file on an interrupted write.
   * A tick stuck on a provider call gets 30 s.
   */
  @PreDestroy
  public void close() throws InterruptedException {
    ScheduledExecutorService[] threads = {schedulerThread, spot, fleetThread};
    for (ScheduledExecutorService e : threads) {
      e.shutdown();
    }
    for (ScheduledExecutorService e : threads) {
      if (!e.awaitTermination(30, TimeUnit.SECONDS)) {
        e.shutdownNow();
      }
    }
  }
}
