package io.squall.core.schedule;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.Partition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Drives the real scheduler over many cycles with a manual clock: applies each plan to an
 * in-memory cluster (starts, timeouts, preemptions) and ends jobs after their true run time.
 */
final class Harness {
  private final Scheduler scheduler;
  private ClusterSnapshot snapshot;
  private Instant now;
  private final Map<JobKey, Duration> runtimes = new HashMap<>();
  final List<Plan> plans = new ArrayList<>();
  final Map<JobKey, Instant> started = new LinkedHashMap<>();

  Harness(SchedulerConfig config, ClusterSnapshot snapshot, Instant start) {
    this.scheduler = new Scheduler(config);
    this.snapshot = snapshot;
    this.now = start;
  }

  /** How long a job (or every task of an array) really runs once started. */
  Harness runtime(long id, Duration d) {
    runtimes.put(JobKey.of(id), d);
    return this;
  }

  Instant now() {
    return now;
  }

  ClusterSnapshot snapshot() {
    return snapshot;
  }

  Job job(JobKey key) {
    return snapshot.jobs().stream().filter(j -> j.key().equals(key)).findFirst().orElseThrow();
  }

  /** One cycle at the current time; the plan is applied at once. */
  Plan cycle() {
    finishDueJobs();
    Plan plan = scheduler.cycle(snapshot, now);
    plans.add(plan);
    apply(plan);
    return plan;
  }

  /** Cycles every {@code step} until {@code until}. */
  void runUntil(Instant until, Duration step) {
    while (!now.isAfter(until)) {
      cycle();
      now = now.plus(step);
    }
  }

  /** A job submitted now. */
  Harness submit(Job job) {
    List<Job> jobs = new ArrayList<>(snapshot.jobs());
    jobs.add(job);
    snapshot = snapshot.withJobs(jobs);
    return this;
  }

  /** A job changed by a user command (held, released) between cycles. */
  Harness change(JobKey key, UnaryOperator<Job> command) {
    snapshot = snapshot.withJobs(snapshot.jobs().stream().map(j -> j.key().equals(key) ? command.apply(j) : j).toList());
    return this;
  }

  void advance(Duration d) {
    now = now.plus(d);
  }

  private void finishDueJobs() {
    List<Job> jobs = new ArrayList<>();
    for (Job j : snapshot.jobs()) {
      Duration d = runtimes.get(JobKey.of(j.key().id()));
      if (j.state() == JobState.RUNNING && d != null && !now.isBefore(j.startTime().plus(d))) {
        jobs.add(j.finished(JobState.COMPLETED, 0, j.startTime().plus(d)));
      } else if (j.state() == JobState.RUNNING && j.preemptedAt() != null && !now.isBefore(graceEnd(j))) {
        jobs.add(j.requeued());
      } else {
        jobs.add(j);
      }
    }
    snapshot = snapshot.withJobs(jobs);
  }

  /** When a preempted job's partition GraceTime is up: it keeps its nodes until then. */
  private Instant graceEnd(Job preempted) {
    int grace = snapshot.partitions().stream().filter(p -> p.name().equals(preempted.partition()))
        .mapToInt(Partition::graceTimeSeconds).findFirst().orElse(0);
    return preempted.preemptedAt().plusSeconds(grace);
  }

  /** The plan carried out by the production {@link PlanApplication} on the in-memory jobs. */
  private void apply(Plan plan) {
    Map<JobKey, Job> jobs = new LinkedHashMap<>();
    snapshot.jobs().forEach(j -> jobs.put(j.key(), j));
    PlanApplication.apply(plan, new PlanApplication.Ledger() {
      @Override
      public Job job(JobKey key) {
        return jobs.get(key);
      }

      @Override
      public boolean usable(String node) {
        return snapshot.nodes().stream().anyMatch(n -> n.name().equals(node));
      }

      @Override
      public void eligible(Action.Eligible e) {
        jobs.put(e.job(), jobs.get(e.job()).eligibleSince(e.since()));
      }

      @Override
      public void start(Action.Start s) {
        JobKey parent = JobKey.of(s.job().id());
        Job source = jobs.containsKey(s.job()) ? jobs.get(s.job()) : jobs.get(parent);
        if (!jobs.containsKey(s.job())) {
          List<Integer> rest = new ArrayList<>(source.pendingTasks());
          rest.remove(s.job().taskId());
          if (rest.isEmpty()) {
            jobs.remove(parent);
          } else {
            jobs.put(parent, source.withPendingTasks(rest));
          }
          jobs.put(s.job(), source.withPendingTasks(List.of()).started(s.job(), s.partition(), s.grants(), now));
        } else {
          jobs.put(s.job(), source.started(s.job(), s.partition(), s.grants(), now));
        }
      }

      @Override
      public void waiting(Action.Wait w) {
        // the harness keeps no reasons: the plans are recorded
      }

      @Override
      public void timeout(Job job) {
        jobs.put(job.key(), job.finished(JobState.TIMEOUT, null, now));
      }

      @Override
      public void limitSignal(Job job, Action.LimitSignal signal) {
        // the harness runs no processes: the plans are recorded
      }

      @Override
      public void preempt(Job job, boolean requeue, String why, Duration grace) {
        // Requeue-mode victims keep their nodes for their grace time, then are requeued (finishDueJobs).
        jobs.put(job.key(), requeue ? job.preempting(now) : job.finished(JobState.CANCELLED, null, now));
      }
    });
    snapshot = snapshot.withJobs(new ArrayList<>(jobs.values()));
  }
}
