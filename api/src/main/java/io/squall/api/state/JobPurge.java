package io.squall.api.state;

import io.squall.api.config.SquallConfig;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.sbatch.Dependency;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Slurm's purge of old job records: a finished job leaves the controller's memory once it has
 * been finished for MinJobAge ({@code squall.min-job-age}); its row stays, and sacct and the API
 * serve it from the database. So neither a scheduling cycle nor a heartbeat grows with history.
 *
 * <p>All jobs of one id go together, once every one of them is finished (Slurm purges an array
 * only when all its tasks are done). A job that an unfinished job's {@code --dependency} names
 * stays: Slurm lifts a dependency on a purged job ("job is gone, dependency lifted" in
 * job_scheduler.c), which would start an {@code afterok} job after its dependency failed.
 */
@Singleton
public final class JobPurge {
  private final StateWriter writer;
  private final Duration minJobAge;

  public JobPurge(StateWriter writer, SquallConfig config) {
    this.writer = writer;
    this.minJobAge = config.getMinJobAge();
  }

  /** Forgets what is due at {@code now}; returns how many jobs left memory. */
  public int purge(Instant now) throws InterruptedException {
    if (minJobAge.isZero()) {
      return 0;
    }
    try {
      return writer.forget(state -> due(state, now.minus(minJobAge))).get();
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("purging finished jobs failed", e.getCause());
    }
  }

  /** The keys of the jobs whose whole id finished at or before {@code cutoff} and that nothing waits on. */
  static List<JobKey> due(ClusterState state, Instant cutoff) {
    if (state.finishedJobs() == 0) {
      return List.of();
    }
    Set<Long> dependedOn = new HashSet<>();
    for (StoredJob s : state.jobs()) {
      Dependency d = s.job().state().isFinished() ? null : s.request().control().dependency();
      if (d != null) {
        d.conditions().forEach(c -> dependedOn.add(c.jobId()));
      }
    }
    List<JobKey> out = new ArrayList<>();
    List<JobKey> group = new ArrayList<>();
    long groupId = -1;
    boolean groupDue = false;
    // Jobs are in key order, so the jobs of one id (an array's tasks and remainder) are adjacent.
    for (StoredJob s : state.jobs()) {
      if (s.key().id() != groupId) {
        if (groupDue) {
          out.addAll(group);
        }
        group.clear();
        groupId = s.key().id();
        groupDue = !dependedOn.contains(groupId);
      }
      group.add(s.key());
      Job j = s.job();
      // A dependency may name an array task by its own job id.
      groupDue &= j.state().isFinished() && j.endTime() != null && !j.endTime().isAfter(cutoff)
          && !dependedOn.contains(j.jobId());
    }
    if (groupDue) {
      out.addAll(group);
    }
    return out;
  }
}
