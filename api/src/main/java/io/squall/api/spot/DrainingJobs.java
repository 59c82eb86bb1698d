package io.squall.api.spot;

import io.squall.core.model.JobKey;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The running jobs that were sent their checkpoint signal and are waiting to be stopped: because
 * a node of theirs is being interrupted, or because a user asked for a checkpointed requeue
 * ({@code scontrol requeue}, {@code squall pause}). Such a job whose batch script exits meanwhile
 * (it checkpointed and left, or died of the signal) is requeued as its drain says, not ended.
 * Thread-safe.
 */
@Singleton
public final class DrainingJobs {
  /**
   * @param why for the job's history
   * @param byUser a user's requeue (no restart limit, REQUEUED in the history) rather than an interruption
   * @param hold whether the requeued job is held (squall pause)
   * @param earlierInterruptions how many interruptions stopped the job before this one (for max-restarts)
   */
  public record Drain(String why, boolean byUser, boolean hold, int earlierInterruptions) {}

  private final Map<JobKey, Drain> draining = new ConcurrentHashMap<>();

  void add(JobKey job, Drain drain) {
    draining.put(job, drain);
  }

  void remove(JobKey job) {
    draining.remove(job);
  }

  /** A user paused a job an interruption is draining: it is requeued held. */
  void holdAfterwards(JobKey job) {
    draining.computeIfPresent(job, (k, d) -> new Drain(d.why(), d.byUser(), true, d.earlierInterruptions()));
  }

  /** The job's drain, or null when it is not being drained. */
  public Drain of(JobKey job) {
    return draining.get(job);
  }
}
