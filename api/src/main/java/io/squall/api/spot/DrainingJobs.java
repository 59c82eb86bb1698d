package io.squall.api.spot;

import io.squall.api.state.StoredJob;
import io.squall.core.model.JobKey;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The running jobs that were sent their checkpoint signal and are waiting to be stopped: because
 * a node of theirs is being interrupted, or because a user asked for a checkpointed requeue
 * ({@code scontrol requeue}, {@code squall pause}). Such a job whose batch script exits meanwhile
 * (it checkpointed and left, or died of the signal) is requeued as its drain says, not ended.
 *
 * <p>A drain belongs to one run of its job (its restart count): once the job has been requeued
 * and runs again, an entry not yet cleared is stale and counts as none. Thread-safe.
 */
@Singleton
public final class DrainingJobs {
  /**
   * @param why for the job's history
   * @param byUser a user's requeue (no restart limit, REQUEUED in the history) rather than an interruption
   * @param hold whether the requeued job is held (squall pause)
   * @param earlierInterruptions how many interruptions stopped the job before this one (for max-restarts)
   * @param restartCount the run it drains
   */
  public record Drain(String why, boolean byUser, boolean hold, int earlierInterruptions, int restartCount) {}

  private final Map<JobKey, Drain> draining = new ConcurrentHashMap<>();

  void add(JobKey job, Drain drain) {
    draining.put(job, drain);
  }

  /** Clears the drain of that run of the job (a newer run's stays). */
  void remove(JobKey job, int restartCount) {
    draining.computeIfPresent(job, (k, d) -> d.restartCount() == restartCount ? null : d);
  }

  /** A user paused a job an interruption is draining: it is requeued held. */
  void holdAfterwards(StoredJob job) {
    draining.computeIfPresent(job.key(), (k, d) -> d.restartCount() != job.job().restartCount() ? d
        : new Drain(d.why(), d.byUser(), true, d.earlierInterruptions(), d.restartCount()));
  }

  /** The drain of the job's current run, or null when it is not being drained. */
  public Drain of(StoredJob job) {
    Drain d = draining.get(job.key());
    return d != null && d.restartCount() == job.job().restartCount() ? d : null;
  }
}
