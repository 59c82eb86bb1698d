package io.squall.api.jobs;

import io.squall.api.config.SquallConfig;
import io.squall.api.state.Batch;
import io.squall.api.state.StoredJob;
import io.squall.api.state.Submission;
import io.squall.core.model.Job;
import io.squall.core.model.JobState;
import io.squall.core.sbatch.JobRequest;
import io.squall.core.sbatch.SbatchException;
import io.squall.core.sbatch.SbatchParser;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * What becomes of the pending jobs of an advanced reservation that is deleted or purged, as
 * slurmctld does it (reservation.c, {@code _clear_job_resv}): each loses the reservation and is
 * held, so that it does not start anywhere unasked; {@code scontrol release} then lets it run
 * outside any reservation. The cleared reservation is kept with the job's updates
 * ({@code --reservation=}), so a restart reads the same request.
 */
@Singleton
public final class ReservationJobs {
  private final SquallConfig config;

  public ReservationJobs(SquallConfig config) {
    this.config = config;
  }

  /**
   * Holds, without their reservation, the pending jobs that name {@code name}.
   *
   * @param why what happened to it ("deleted by admin", "ended"), for the jobs' history
   */
  public void reservationGone(Batch b, String name, String why) {
    for (Job pending : b.unfinishedJobs()) {
      if (pending.state() != JobState.PENDING || !name.equals(pending.request().placement().reservation())) {
        continue;
      }
      StoredJob j = b.job(pending.key());
      if (j == null) {
        continue;
      }
      Submission s = j.submission();
      Submission updated = s.updatedWith(List.of("--reservation="));
      JobRequest r;
      try {
        r = new SbatchParser(config.zoneId()).parse(s.script(), s.scriptName(), s.environment(), updated.allOptions(),
            s.submitTime()).request();
      } catch (SbatchException e) {
        continue; // it parsed when it was submitted; it keeps waiting with ReservationDeleted
      }
      b.update(j.withJob(j.job().withRequest(r.withHold(true))).withSubmission(updated)
          .withReason("ReservationDeleted", null));
      b.event(j.key(), JobState.PENDING, "held: its reservation " + name + " was " + why
          + " (scontrol release runs it outside any reservation)");
    }
  }
}
