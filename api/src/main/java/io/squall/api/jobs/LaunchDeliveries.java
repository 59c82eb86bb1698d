package io.squall.api.jobs;

import io.squall.api.state.StoredJob;
import io.squall.core.model.JobKey;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where each started job's launch is: queued behind other side effects (they run one at a time),
 * on its way, or back (taken, refused or unanswered) at some instant. A node's reports may call a
 * running job lost only once its launch has had the node timeout to arrive: counted from the job's
 * start, a launch queue longer than the timeout (10,000 jobs started at once, issue 18) had jobs
 * requeued as "not on the node" before their launch was even sent, and each requeue started them
 * again behind the same queue. Memory only: after a restart the job's start time is all there is,
 * as before.
 */
@Singleton
public final class LaunchDeliveries {
  /** A run's launch; {@code back} is null while it is queued or on its way. */
  private record Launch(int restart, Instant back) {}

  private final ConcurrentHashMap<JobKey, Launch> launches = new ConcurrentHashMap<>();
  private final InstantSource clock;

  public LaunchDeliveries(InstantSource clock) {
    this.clock = clock;
  }

  /** The job's launch is queued (staged with the job's start, on the writer thread). */
  void queued(StoredJob job) {
    launches.put(job.key(), new Launch(job.job().restartCount(), null));
  }

  /** Its launch call came back, whatever the answer; a late return for an earlier run changes nothing. */
  void back(StoredJob job) {
    launches.computeIfPresent(job.key(), (k, l) -> l.restart() == job.job().restartCount() && l.back() == null
        ? new Launch(l.restart(), clock.instant()) : l);
  }

  /**
   * Whether the running job's launch came back before {@code deadline}, or is not known here (the
   * controller restarted since, or it came back long ago): only then can its absence from a node's
   * report mean it is lost.
   */
  public boolean backBefore(StoredJob job, Instant deadline) {
    Launch l = launches.get(job.key());
    return l == null || l.restart() != job.job().restartCount() || l.back() != null && l.back().isBefore(deadline);
  }

  /** Forgets launches that came back before {@code deadline}: the job's start time, earlier still, says as much. */
  public void forgetBackBefore(Instant deadline) {
    launches.values().removeIf(l -> l.back() != null && l.back().isBefore(deadline));
  }
}
