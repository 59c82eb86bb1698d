package io.squall.api.scheduling;

import io.squall.api.agents.AgentReports;
import io.squall.api.agents.CompletingRuns;
import io.squall.api.config.ClusterLayout;
import io.squall.api.jobs.ReservationJobs;
import io.squall.api.money.BudgetWatch;
import io.squall.api.metrics.SquallMetrics;
import io.squall.api.state.ClusterState;
import io.squall.api.state.JobPurge;
import io.squall.api.state.NodeOccupancy;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.Job;
import io.squall.core.model.JobState;
import io.squall.core.priority.UsageMeter;
import io.squall.core.reserve.ReservationRules;
import io.squall.core.schedule.Plan;
import io.squall.core.schedule.Scheduler;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One scheduling cycle at a given instant: snapshot, plan, apply. The plan is computed off the
 * writer thread from a consistent snapshot, then applied by the writer, so submissions are not
 * held up by planning. When cycles run is the {@link Ticker}'s: every {@code
 * squall.scheduler-interval}, soon after anything that may let a job start, or by hand with
 * {@code squall.ticks: manual}; always on one thread, one cycle at a time. Once a
 * PriorityCalcPeriod has passed, a cycle first has the {@link UsageMeter} decay fair-share usage
 * and charge the running jobs, so that it orders the queue by usage as of now.
 */
@Singleton
public final class SchedulingCycle {
  private static final Logger LOG = LoggerFactory.getLogger(SchedulingCycle.class);
  private final Scheduler scheduler;
  private final StateWriter writer;
  private final PlanApplier applier;
  private final AgentReports reports;
  private final ClusterLayout layout;
  private final SquallMetrics metrics;

  private final BudgetWatch budgets;
  private final JobPurge purge;
  private final UsageMeter usageMeter;
  private final ReservationJobs reservationJobs;
  private final CompletingRuns completing;
  /** The last cycle that ran; read and written on the scheduler's thread only (one cycle at a time). */
  private volatile LastCycle last = LastCycle.NONE;

  public SchedulingCycle(StateWriter writer, PlanApplier applier, AgentReports reports, ClusterLayout layout,
      SquallMetrics metrics, Scheduler scheduler, BudgetWatch budgets, JobPurge purge, UsageMeter usageMeter,
      ReservationJobs reservationJobs, CompletingRuns completing) {
    this.reservationJobs = reservationJobs;
    this.completing = completing;
    this.usageMeter = usageMeter;
    this.budgets = budgets;
    this.purge = purge;
    this.scheduler = scheduler;
    this.writer = writer;
    this.applier = applier;
    this.reports = reports;
    this.layout = layout;
    this.metrics = metrics;
  }

  /** Node timeouts, old finished jobs out of memory, then a cycle at {@code now}; returns how many jobs started. */
  public int tick(Instant now) {
    return tick(now, true);
  }

  /**
   * As {@link #tick(Instant)}, but the cycle only when it can decide something new: see {@link
   * #cycleIfDue}. What the {@link Ticker} runs every {@code squall.scheduler-interval}.
   */
  int periodic(Instant now) {
    return tick(now, false);
  }

  private int tick(Instant now, boolean always) {
    try {
      reports.checkTimeouts().get();
      purge.purge(now);
      // Slurm purges a reservation after its end time; its jobs were ended then by the cycle.
      if (!writer.state().reservations().isEmpty()) {
        writer.write(b -> {
          List<Job> holding = b.holdingJobs().stream().map(StoredJob::job).toList();
          for (var r : ReservationRules.ended(b.reservations(), holding, b.now())) {
            b.removeReservation(r.name());
            reservationJobs.reservationGone(b, r.name(), "purged after its end");
          }
          return null;
        }).get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    } catch (Exception e) {
      LOG.warn("node timeout check or job purge failed", e);
    }
    return always ? cycle(now) : cycleIfDue(now);
  }

  /** One cycle at {@code now}: snapshot, plan, apply; returns how many jobs started. */
  public int cycle(Instant now) {
    return cycle(now, true);
  }

  /**
   * A cycle at {@code now} unless it would repeat the last one: same snapshot, no time trigger
   * passed since ({@link Scheduler#nextTimeTrigger}) and the last full pass less than {@link
   * LastCycle#FULL_PASS} ago. Such a cycle decides what the last one did: with 90,000 jobs waiting it took
   * most of a core, every second, for nothing (issue 18). Slurm's scheduler, too, runs on events
   * (submission, job end, node change) and otherwise every sched_interval.
   */
  int cycleIfDue(Instant now) {
    return cycle(now, false);
  }

  private int cycle(Instant now, boolean always) {
    try {
      long began = System.nanoTime();
      if (usageMeter.due(writer.state().usage(), now)) {
        writer.write(b -> {
          List<Job> holding = b.holdingJobs().stream().map(StoredJob::job).toList();
          b.usage(usageMeter.charge(b.usage(), holding, b.now()));
          return null;
        }).get();
      }
      // A job whose last run may still go on somewhere is left out (CompletingRuns).
      ClusterSnapshot snapshot = writer.read(s -> s.snapshot(layout)).get().withBudgets(budgets.limits(now))
          .withCompleting(completing.held());
      if (!always && last.covers(snapshot, now)) {
        return 0;
      }
      Plan plan = scheduler.cycle(snapshot, now);
      int started = writer.write(b -> applier.apply(b, plan)).get();
      last = new LastCycle(snapshot, now, scheduler.nextTimeTrigger(snapshot, now));
      metrics.cycleTook(Duration.ofNanos(System.nanoTime() - began));
      publishGauges(writer.state());
      return started;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.error("scheduling cycle failed", e);
    }
    return 0;
  }

  private void publishGauges(ClusterState state) {
    // Compared element by element: joining the labels at every comparison cost more than the rest of the cycle.
    Map<List<String>, Integer> jobs = new TreeMap<>(Comparator.comparing((List<String> l) -> l.get(0))
        .thenComparing(l -> l.get(1)));
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
}
