package io.squall.api.state;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.sbatch.JobRequest;
import java.time.Instant;
import java.util.List;

/**
 * A job as the controller holds it: the core's view plus what only the controller needs.
 * Immutable; the state writer replaces it on every change.
 *
 * @param reason why it waits (pending) or why it ended; "None" otherwise
 * @param expectedStart its backfill reservation while pending, else null
 * @param ending the final state a job being stopped will end in (CANCELLED, TIMEOUT, ...), else null
 * @param exitSignal the signal that killed the batch script, else null
 * @param credential the secret srun shows the job's agents; null while pending
 * @param ranOn the nodes and GPUs it last ran on: kept after it ends, for accounting and output
 * @param version the stored row's version; null before the first insert
 * @param limitSignalled whether this run got its {@code --signal} before its time limit (sent once)
 */
public record StoredJob(Job job, Submission submission, String reason, Instant expectedStart, JobState ending,
    Integer exitSignal, String credential, List<GpuGrant> ranOn, Long version, boolean limitSignalled) {
  public StoredJob {
    ranOn = List.copyOf(ranOn);
  }

  /** A job whose run has not been sent its {@code --signal}. */
  public StoredJob(Job job, Submission submission, String reason, Instant expectedStart, JobState ending,
      Integer exitSignal, String credential, List<GpuGrant> ranOn, Long version) {
    this(job, submission, reason, expectedStart, ending, exitSignal, credential, ranOn, version, false);
  }

  public JobKey key() {
    return job.key();
  }

  public JobRequest request() {
    return job.request();
  }

  public boolean held() {
    return job.request().control().hold();
  }

  public StoredJob withJob(Job newJob) {
    return new StoredJob(newJob, submission, reason, expectedStart, ending, exitSignal, credential, ranOn, version,
        limitSignalled);
  }

  /** The job with its submission updated ({@code scontrol update}'s options added). */
  public StoredJob withSubmission(Submission updated) {
    return new StoredJob(job, updated, reason, expectedStart, ending, exitSignal, credential, ranOn, version,
        limitSignalled);
  }

  public StoredJob withReason(String newReason, Instant newExpectedStart) {
    return new StoredJob(job, submission, newReason, newExpectedStart, ending, exitSignal, credential, ranOn, version,
        limitSignalled);
  }

  public StoredJob ending(JobState finalState, String why) {
    return new StoredJob(job, submission, why, null, finalState, exitSignal, credential, ranOn, version,
        limitSignalled);
  }

  /** The job has just started on {@code grants}, with a fresh credential for its srun steps (a new run: not signalled). */
  public StoredJob startedWith(Job started, String newCredential) {
    return new StoredJob(started, submission, "None", null, null, null, newCredential, started.allocation(), version);
  }

  public int gpusRanOn() {
    int n = 0;
    for (GpuGrant g : ranOn) {
      n += g.gpuIndices().size();
    }
    return n;
  }

  public StoredJob withExitSignal(Integer signal) {
    return new StoredJob(job, submission, reason, expectedStart, ending, signal, credential, ranOn, version,
        limitSignalled);
  }

  public StoredJob withVersion(Long newVersion) {
    return new StoredJob(job, submission, reason, expectedStart, ending, exitSignal, credential, ranOn, newVersion,
        limitSignalled);
  }

  /** This run has been sent its {@code --signal} before its time limit. */
  public StoredJob limitSignalSent() {
    return new StoredJob(job, submission, reason, expectedStart, ending, exitSignal, credential, ranOn, version, true);
  }
}
