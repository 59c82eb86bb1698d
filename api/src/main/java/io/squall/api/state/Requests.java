package io.squall.api.state;

import io.squall.core.sbatch.JobRequest;

/** Changes to a job request made after submission (scontrol hold/release). */
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
}
