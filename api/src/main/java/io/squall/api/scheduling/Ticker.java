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
 * One clock source for the service's periodic decisions: every 250 ms, on one thread
 * ({@code squall-ticks}), the drain ({@link InterruptionResponder#tick}) then the elastic fleet
 * ({@link ElasticFleet#tick}) at the same instant of the controller's clock. With
 * {@code squall.ticks: manual} nothing ticks by itself (nor does the scheduler loop): a test moves
 * the {@code ManualClock} and calls {@link #tick()}, which runs a scheduler cycle too, so that
 * service tests drive time instead of sleeping and polling.
 */
@Context
public final class Ticker implements ApplicationEventListener<ServerStartupEvent> {
  private static final Logger LOG = LoggerFactory.getLogger(Ticker.class);
  static final Duration PERIOD = Duration.ofMillis(250);

  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "squall-ticks");
    t.setDaemon(true);
    return t;
  });
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

  @Override
  public void onApplicationEvent(ServerStartupEvent event) {
    if (!manual) {
      executor.scheduleWithFixedDelay(() -> step(clock.instant()), PERIOD.toMillis(), PERIOD.toMillis(),
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
    step(clock.instant());
  }

  private void step(Instant now) {
    try {
      drains.tick(now);
    } catch (RuntimeException e) {
      LOG.warn("interruption handling failed; will try again", e);
    }
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
    executor.shutdown();
    if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
      executor.shutdownNow();
    }
  }
}
