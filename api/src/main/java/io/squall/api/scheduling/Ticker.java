package io.squall.api.scheduling;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.ShutdownEvent;
import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import io.squall.api.config.SquallConfig;
import io.squall.api.fleet.ElasticFleet;
import io.squall.api.simulate.ServiceConfig;
import io.squall.api.spot.InterruptionResponder;
import io.squall.api.utilisation.GpuUtilisation;
import io.squall.core.schedule.CycleWakeup;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One clock source for the service's periodic decisions, each at the controller's clock on its
 * own thread: scheduler cycles ({@link SchedulingCycle}) on {@code squall-scheduler}, soon after
 * anything that may let a job start (a {@link Wakeup}) and every {@code squall.scheduler-interval}
 * when something changed or a time trigger passed ({@link SchedulingCycle#cycleIfDue}); the drain ({@link InterruptionResponder#tick}) and the elastic fleet
 * ({@link ElasticFleet#tick}) every 250 ms on {@code squall-spot} and {@code squall-fleet}, so
 * that a slow provider call never delays stopping a job before its machine goes, nor a cycle;
 * what one tells another goes through inboxes. With {@code squall.ticks: manual} nothing ticks by
 * itself: a test moves the {@code ManualClock} and calls {@link #tick()}, which runs a scheduler
 * cycle, the drain and the fleet in turn at one instant, so that service tests drive time instead
 * of sleeping and polling.
 */
@Context
@Requires(notEnv = ServiceConfig.ENVIRONMENT) // squall simulate reads the configuration only
public final class Ticker implements ApplicationEventListener<ServerStartupEvent> {
  private static final Logger LOG = LoggerFactory.getLogger(Ticker.class);
  static final Duration PERIOD = Duration.ofMillis(250);
  private final ScheduledExecutorService schedulerThread = thread("squall-scheduler");
  private final ScheduledExecutorService spot = thread("squall-spot");
  private final ScheduledExecutorService fleetThread = thread("squall-fleet");
  private final AtomicBoolean wakePending = new AtomicBoolean();
  private volatile long lastCycleNanos;
  private final InterruptionResponder drains;
  private final ElasticFleet fleet;
  private final GpuUtilisation utilisation;
  private final SchedulingCycle scheduler;
  private final Wakeup wakeup;
  private final InstantSource clock;
  private final boolean manual;
  private final Duration schedulerInterval;

  public Ticker(InterruptionResponder drains, ElasticFleet fleet, GpuUtilisation utilisation,
      SchedulingCycle scheduler, Wakeup wakeup, InstantSource clock, SquallConfig config) {
    this.drains = drains;
    this.fleet = fleet;
    this.utilisation = utilisation;
    this.scheduler = scheduler;
    this.wakeup = wakeup;
    this.clock = clock;
    this.manual = config.manualTicks();
    this.schedulerInterval = config.getSchedulerInterval();
    if (!manual) {
      wakeup.attach(this::wake);
    }
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
      schedulerThread.scheduleWithFixedDelay(() -> cycled(scheduler.periodic(clock.instant())), interval, interval,
          TimeUnit.MILLISECONDS);
      spot.scheduleWithFixedDelay(() -> drains(clock.instant()), PERIOD.toMillis(), PERIOD.toMillis(),
          TimeUnit.MILLISECONDS);
      fleetThread.scheduleWithFixedDelay(() -> fleet(clock.instant()), PERIOD.toMillis(), PERIOD.toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  /**
   * Asks for a scheduler cycle soon, on the scheduler's thread; many wakes before it runs make one
   * cycle, when {@link CycleWakeup} says (the simulator follows the same rule).
   */
  private void wake() {
    if (!schedulerThread.isShutdown() && wakePending.compareAndSet(false, true)) {
      long delay = CycleWakeup.delay(Duration.ofNanos(System.nanoTime() - lastCycleNanos)).toMillis();
      schedulerThread.schedule(() -> {
        wakePending.set(false);
        cycled(scheduler.cycle(clock.instant()));
      }, delay, TimeUnit.MILLISECONDS);
    }
  }

  /** After a cycle: started jobs may have been array tasks with more behind them, so look again at once. */
  private void cycled(int started) {
    lastCycleNanos = System.nanoTime();
    if (started > 0) {
      wake();
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
    scheduler.tick(now);
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

  /** The fleet, then the GPUs counted as it left them (when a sample is due). */
  private void fleet(Instant now) {
    try {
      fleet.tick(now);
    } catch (RuntimeException e) {
      LOG.warn("elastic fleet tick failed; will try again", e);
    }
    try {
      utilisation.sample(now);
    } catch (RuntimeException e) {
      LOG.warn("counting GPUs for the utilisation history failed; will try again", e);
    }
  }

  /**
   * Stops ticking as soon as shutdown begins, and lets the current ticks finish before the
   * application (and its database) goes: an interrupt could land in the middle of a database
   * write, and H2 closes its file on an interrupted write. A tick stuck on a provider call gets 30 s.
   */
  @EventListener
  public void onShutdown(ShutdownEvent event) throws InterruptedException {
    close();
  }

  @PreDestroy
  public void close() throws InterruptedException {
    wakeup.detach();
    List<ScheduledExecutorService> threads = List.of(schedulerThread, spot, fleetThread);
    threads.forEach(ScheduledExecutorService::shutdown);
    for (ScheduledExecutorService e : threads) {
      if (!e.awaitTermination(30, TimeUnit.SECONDS)) {
        e.shutdownNow();
      }
    }
  }
}
