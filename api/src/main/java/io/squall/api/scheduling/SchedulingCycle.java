package io.squall.api.scheduling;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.ShutdownEvent;
import io.squall.api.agents.AgentReports;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.metrics.SquallMetrics;
import io.squall.api.state.ClusterState;
import io.squall.api.state.NodeOccupancy;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.JobState;
import io.squall.core.schedule.Plan;
import io.squall.core.schedule.Scheduler;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs scheduling cycles: {@link #tick(Instant)} when the {@link Ticker} says (every {@code
 * squall.scheduler-interval}, or by hand with {@code squall.ticks: manual}), and on its own thread
 * soon after anything that may let a job start (a submission, a job ending, a release). One cycle
 * at a time. The plan is computed off the writer thread from a consistent snapshot, then applied
 * by the writer, so submissions are not held up by planning.
 */
@Context
public final class SchedulerLoop implements ApplicationEventListener<ShutdownEvent> {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulerLoop.class);
  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "squall-scheduler");
    t.setDaemon(true);
    return t;
  });
  private static final long MIN_GAP_MS = 100;
  private final AtomicBoolean wakePending = new AtomicBoolean();
  /** Ticks and wake-ups come on different threads: two cycles at once would plan from one snapshot twice. */
  private final ReentrantLock cycling = new ReentrantLock();
  private volatile long lastCycleNanos;
  private final Scheduler scheduler;
  private final StateWriter writer;
  private final PlanApplier applier;
  private final AgentReports reports;
  private final ClusterLayout layout;
  private final SquallMetrics metrics;
  private final InstantSource clock;
  private final Wakeup wakeup;
  private final boolean manual;

  public SchedulerLoop(StateWriter writer, PlanApplier applier, AgentReports reports, ClusterLayout layout,
      SquallMetrics metrics, InstantSource clock, SquallConfig config, Wakeup wakeup, Scheduler scheduler) {
    this.scheduler = scheduler;
    this.wakeup = wakeup;
    this.writer = writer;
    this.applier = applier;
    this.reports = reports;
    this.layout = layout;
    this.metrics = metrics;
    this.clock = clock;
    this.manual = config.manualTicks();
    if (!manual) {
      wakeup.attach(this::wake);
    }
  }

  /**
   * Asks for a cycle soon; many wakes before it runs make one cycle, and cycles are at least
   * {@link #MIN_GAP_MS} apart (Slurm's sched_min_interval) so a burst of submissions is not
   * slowed down by planning after each one. Not with manual ticks: then only the test cycles.
   */
  void wake() {
    if (!manual && !executor.isShutdown() && wakePending.compareAndSet(false, true)) {
      long sinceLast = System.nanoTime() - lastCycleNanos;
      long delay = Math.max(5, MIN_GAP_MS - sinceLast / 1_000_000);
      executor.schedule(() -> {
        wakePending.set(false);
        cycle(clock.instant());
      }, delay, TimeUnit.MILLISECONDS);
    }
  }

  /** Node timeouts, then a cycle at {@code now}. */
  public void tick(Instant now) {
    try {
      reports.checkTimeouts().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (Exception e) {
      LOG.warn("node timeout check failed", e);
    }
    cycle(now);
  }

  /** One cycle at {@code now}: snapshot, plan, apply. */
  void cycle(Instant now) {
    cycling.lock();
    try {
      long began = System.nanoTime();
      lastCycleNanos = began;
      ClusterSnapshot snapshot = writer.read(s -> s.snapshot(layout)).get();
      Plan plan = scheduler.cycle(snapshot, now);
      int started = writer.write(b -> applier.apply(b, plan)).get();
      metrics.cycleTook(Duration.ofNanos(System.nanoTime() - began));
      publishGauges(writer.state());
      if (started > 0) {
        // Started jobs may have been array tasks with more behind them: look again at once.
        wake();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.error("scheduling cycle failed", e);
    } finally {
      cycling.unlock();
    }
  }

  private void publishGauges(ClusterState state) {
    Map<List<String>, Integer> jobs = new TreeMap<>((a, b) -> String.join("/", a).compareTo(String.join("/", b)));
    for (StoredJob j : state.jobs()) {
      JobState s = j.job().state();
      if (!s.isFinished()) {
        jobs.merge(List.of(s.name(), s == JobState.PENDING ? j.reason() : "None"), 1, Integer::sum);
      }
    }
    NodeOccupancy occupancy = NodeOccupancy.of(state);
    Map<String, Integer> nodes = new TreeMap<>();
    for (NodeStatus n : state.nodes()) {
      nodes.merge(occupancy.state(n), 1, Integer::sum);
    }
    metrics.queue(jobs, nodes);
  }

  /** Stops cycling as soon as shutdown begins, before the database goes away under the writer. */
  @Override
  public void onApplicationEvent(ShutdownEvent event) {
    close();
  }

  @PreDestroy
  public void close() {
    wakeup.detach();
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
