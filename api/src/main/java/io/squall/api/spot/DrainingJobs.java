package io.squall.api.spot;

import io.squall.core.model.JobKey;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The jobs that were sent their checkpoint signal because a node of theirs is being
 * interrupted, with why. A job of these whose batch script fails (many die of the signal
 * itself) was ended by the interruption, not by its own fault, and is requeued as interrupted.
 * Thread-safe.
 */
@Singleton
public final class DrainingJobs {
  private final Map<JobKey, String> draining = new ConcurrentHashMap<>();

  void add(JobKey job, String why) {
    draining.put(job, why);
  }

  void remove(JobKey job) {
    draining.remove(job);
  }

  /** Why the job is being drained, or null when it is not. */
  public String why(JobKey job) {
    return draining.get(job);
  }
}
