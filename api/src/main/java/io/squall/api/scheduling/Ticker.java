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
 * One clock source for the service's periodic decisions: every 250 ms the drain
 * ({@link InterruptionResponder#tick}) and the elastic fleet ({@link ElasticFleet#tick}) tick at
 * the controller's clock, each on its own thread ({@code squall-spot}, {@code squall-fleet}) so that
 * a slow provider call never delays stopping a job before its machine goes; what one tells the
 * other goes through inboxes. With {@code squall.ticks: manual} nothing ticks by itself (nor does
 * the scheduler loop): a test moves the {@code ManualClock} and calls {@link #tick()}, which runs a
 * scheduler cycle, the drain and the fleet in turn at one instant, so that service tests drive
 * time instead of sleeping and polling.
 */
@Context
public final class Ticker implements ApplicationEventListener<ServerStartupEvent> {
  private static final Logger LOG = LoggerFactory.getLogger(Ticker.class);
  static final Duration PERIOD = Duration.ofMillis(250);

  private final ScheduledExecutorService spot = thread("squall-spot");
  private final ScheduledExecutorService fleetThread = thread("squall-fleet");
  private final InterruptionResponder drains;
  private final ElasticFleet fleet;
  private final SchedulerLoop scheduler;
  private final InstantSource clock;
  private final boolean manual;

  public Ticker(InterruptionResponder drains, ElasticFleet fleet, SchedulerLoop scheduler, InstantSource clock,
      SquallConfig config) {
    this.drains = drains;
    this.fleet = fleet;
    this.scheduler = scheduler;
    this.clock = clock;
    this.manual = config.manualTicks();
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
    scheduler.tick();
    Instant now = clock.instant();
    drains(now);
    fleet(now);
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
    spot.shutdown();
    fleetThread.shutdown();
    for (ScheduledExecutorService e : new ScheduledExecutorService[] {spot, fleetThread}) {
      if (!e.awaitTermination(30, TimeUnit.SECONDS)) {
        e.shutdownNow();
      }
    }
  }
}
