package io.squall.api.spot;

import io.squall.api.state.StoredJob;
import io.squall.core.model.JobKey;
import io.squall.spot.drain.DrainMark;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The running jobs that were sent their checkpoint signal and are waiting to be stopped: because
 * a node of theirs is being interrupted, because a user asked for a checkpointed requeue
 * ({@code scontrol requeue}, {@code squall pause}), or because it was preempted. Such a job whose
 * batch script exits meanwhile (it checkpointed and left, or died of the signal) is handled as its
 * {@link DrainMark} says, not ended.
 *
 * <p>A drain belongs to one run of its job (its restart count): once the job has been requeued
 * and runs again, an entry not yet cleared is stale and counts as none. Thread-safe.
 */
@Singleton
public final class DrainingJobs {
  private record Entry(DrainMark mark, int restartCount) {}

  private final Map<JobKey, Entry> draining = new ConcurrentHashMap<>();

  void add(JobKey job, DrainMark mark, int restartCount) {
    draining.put(job, new Entry(mark, restartCount));
  }

  /** Clears the drain of that run of the job (a newer run's stays). */
  void remove(JobKey job, int restartCount) {
    draining.computeIfPresent(job, (k, e) -> e.restartCount() == restartCount ? null : e);
  }

  /** The drain of the job's current run, or null when it is not being drained. */
  public DrainMark of(StoredJob job) {
    Entry e = draining.get(job.key());
    return e != null && e.restartCount() == job.job().restartCount() ? e.mark() : null;
  }
}
