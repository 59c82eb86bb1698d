package io.squall.core.schedule;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.Job;
import io.squall.core.model.Partition;
import io.squall.core.model.Reservation;
import io.squall.core.sbatch.Dependency;
import io.squall.core.sbatch.JobRequest;
import io.squall.core.sbatch.SignalSpec;
import io.squall.core.sbatch.TimeLimit;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The instants at which a cycle over an unchanged snapshot may decide differently than one
 * before: each time {@link Cycle} compares the clock with (a running job's time limit and its
 * {@code --signal} time, a preempted job's grace end, a begin time, a requeue backoff, a deadline,
 * a {@code --switches} wait, an {@code after:job+minutes} delay, a reservation's start and end).
 * Early is harmless (one cycle more); so a time limit is taken whole, whatever the reservation it
 * runs in cuts off, since that reservation's end is a trigger too.
 *
 * <p>Conditions that change continuously with time (a job's age, the run-minutes left of running
 * jobs under GrpTRESRunMins, budgets' remaining time) have no instant here: a caller that skips
 * cycles over an unchanged snapshot must still run one periodically.
 */
final class TimeTriggers {
  private final ClusterSnapshot snapshot;
  private final SchedulerConfig config;
  private final Instant after;
  private final Map<String, Partition> partitions = new HashMap<>();
  private Map<Long, List<Job>> byId;
  private Instant next;

  private TimeTriggers(SchedulerConfig config, ClusterSnapshot snapshot, Instant after) {
    this.snapshot = snapshot;
    this.config = config;
    this.after = after;
    snapshot.partitions().forEach(p -> partitions.put(p.name(), p));
  }

  /** The earliest trigger later than {@code after}, or null when there is none. */
  static Instant next(SchedulerConfig config, ClusterSnapshot snapshot, Instant after) {
    return new TimeTriggers(config, snapshot, after).scan();
  }

  private Instant scan() {
    for (Reservation r : snapshot.reservations()) {
      consider(r.start());
      consider(r.end());
    }
    for (Job job : snapshot.jobs()) {
      if (job.state().holdsResources()) {
        running(job);
      } else if (!job.state().isFinished()) {
        pending(job);
      }
    }
    return next;
  }

  private void running(Job job) {
    Partition p = partitions.get(job.partition());
    if (job.preemptedAt() != null) {
      consider(job.preemptedAt().plusSeconds(p == null ? 0 : p.graceTimeSeconds()));
      return;
    }
    int limit = p == null ? TimeLimit.UNLIMITED : p.timeLimitMinutes(job.request().timing().timeLimitMinutes());
    if (limit == TimeLimit.UNLIMITED || job.startTime() == null) {
      return;
    }
    // As Cycle: the start rounded up to the second.
    long end = job.startTime().getEpochSecond() + (job.startTime().getNano() > 0 ? 1 : 0) + limit * 60L;
    consider(Instant.ofEpochSecond(end));
    SignalSpec s = job.request().control().signal();
    if (s != null) {
      consider(Instant.ofEpochSecond(end - s.seconds()));
    }
  }

  private void pending(Job job) {
    JobRequest r = job.request();
    consider(r.timing().begin());
    consider(job.notBefore());
    consider(r.timing().deadline());
    JobRequest.Placement place = r.placement();
    if (place.switches() != null) {
      Duration wait = place.switchesWaitMinutes() != null ? Duration.ofMinutes(place.switchesWaitMinutes())
          : config.maxSwitchWait();
      consider(job.submitTime().plus(wait));
    }
    Dependency d = r.control().dependency();
    if (d != null) {
      for (Dependency.Condition c : d.conditions()) {
        if (c.type() == Dependency.Type.AFTER) {
          for (Job target : withId(c.jobId())) {
            if (target.startTime() != null) {
              consider(target.startTime().plus(Duration.ofMinutes(c.delayMinutes())));
            }
          }
        }
      }
    }
  }

  /** Jobs by id and by their own job id, as {@link DependencyCheck} finds them; built when first needed. */
  private List<Job> withId(long id) {
    if (byId == null) {
      byId = new HashMap<>();
      for (Job j : snapshot.jobs()) {
        byId.computeIfAbsent(j.key().id(), k -> new ArrayList<>()).add(j);
        if (j.jobId() != j.key().id()) {
          byId.computeIfAbsent(j.jobId(), k -> new ArrayList<>()).add(j);
        }
      }
    }
    return byId.getOrDefault(id, List.of());
  }

  private void consider(Instant t) {
    if (t != null && t.isAfter(after) && (next == null || t.isBefore(next))) {
      next = t;
    }
  }
}
