package io.squall.api.state;

import io.squall.core.sbatch.JobRequest;
import java.time.Instant;

/** Changes to a job request made after submission (scontrol hold/release, restart backoff). */
public final class Requests {
  private Requests() {}

  public static JobRequest withHold(JobRequest r, boolean hold) {
    JobRequest.Control c = r.control();
    if (c.hold() == hold) {
      return r;
    }
    JobRequest.Control held = new JobRequest.Control(c.array(), c.dependency(), c.requeue(), hold, c.nice(),
        c.priority(), c.signal(), c.account(), c.qos(), c.comment(), c.mailType(), c.mailUser(), c.waitAllNodes());
    return new JobRequest(r.jobName(), r.script(), r.resources(), r.placement(), r.timing(), r.files(), held);
  }

  /** The request not to start before {@code begin} (a later --begin of its own stays). */
  public static JobRequest withBeginAtLeast(JobRequest r, Instant begin) {
    JobRequest.Timing t = r.timing();
    if (t.begin() != null && !t.begin().isBefore(begin)) {
      return r;
    }
    JobRequest.Timing later = new JobRequest.Timing(t.timeLimitMinutes(), t.timeMinMinutes(), begin, t.deadline());
    return new JobRequest(r.jobName(), r.script(), r.resources(), r.placement(), later, r.files(), r.control());
  }
}
