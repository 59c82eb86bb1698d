package io.squall.cli;

import io.squall.cli.format.JobStates;
import io.squall.cli.service.AccountingJob;
import io.squall.cli.service.AccountingQuery;
import io.squall.cli.service.JobInfo;
import io.squall.cli.service.JobQuery;
import io.squall.cli.service.ServiceException;
import io.squall.cli.service.ServiceUnreachableException;
import io.squall.cli.service.SquallClient;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code sbatch --wait}: waits until the job, and every task of an array, has ended, and gives the
 * exit status sbatch(1) exits with: "the same as the exit code of the submitted job ... If the job
 * terminated due to a signal rather than a normal exit, the exit code will be set to 1. In the
 * case of a job array, the exit code recorded will be the highest value for any task".
 *
 * <p>It asks the service at Slurm's own pace (sbatch.c's _job_wait): 2 s, then four times longer
 * each time up to 32 s, so a thousand waiting CI jobs cost the controller little. Each task's exit
 * is remembered when first seen ended, so a task that leaves the controller's memory later (after
 * MinJobAge, far longer than 32 s) still counts.
 */
final class JobWait {
  static final Duration FIRST_PAUSE = Duration.ofSeconds(2);
  static final Duration LONGEST_PAUSE = Duration.ofSeconds(32);

  private final SquallClient client;
  private final Sleeper sleeper;
  private final Consumer<String> error;

  /** @param error prints one of sbatch's error lines */
  JobWait(SquallClient client, Sleeper sleeper, Consumer<String> error) {
    this.client = client;
    this.sleeper = sleeper;
    this.error = error;
  }

  /**
   * Blocks until job {@code jobId} and all its tasks have ended.
   *
   * @return the exit status sbatch exits with
   * @throws ServiceException when the service refuses the question (a 4xx other than a lost job)
   */
  int exitStatus(String jobId) throws InterruptedException {
    JobQuery query = new JobQuery(List.of(), List.of(), List.of(), List.of(), List.of(), List.of(jobId));
    Map<String, Integer> ended = new HashMap<>();
    Duration pause = FIRST_PAUSE;
    while (true) {
      sleeper.sleep(pause);
      pause = pause.multipliedBy(4).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(4);
      List<JobInfo> jobs;
      try {
        jobs = client.jobs(query);
      } catch (ServiceUnreachableException e) {
        error.accept("Currently unable to load job state information, retrying: " + e.getMessage());
        continue;
      } catch (ServiceException e) {
        if (e.status() < 500) {
          throw e;
        }
        error.accept("Currently unable to load job state information, retrying: " + e.getMessage());
        continue;
      }
      boolean unfinished = false;
      for (JobInfo j : jobs) {
        if (JobStates.ACTIVE.contains(j.state())) {
          unfinished = true;
        } else {
          ended.put(j.jobId(), status(j.state(), j.exitCode(), j.exitSignal()));
        }
      }
      if (unfinished) {
        continue;
      }
      if (ended.isEmpty()) {
        return fromAccounting(jobId);
      }
      return ended.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
    }
  }

  /** The job left the controller's listing before it was seen ended: its accounting record decides. */
  private int fromAccounting(String jobId) {
    List<AccountingJob> rows = client.accounting(new AccountingQuery(List.of(), List.of(), List.of(jobId),
        List.of(), Instant.EPOCH, null));
    if (rows.isEmpty()) {
      error.accept("Job " + jobId + " no longer found and exit code not found");
      return 1;
    }
    return rows.stream().mapToInt(r -> status(r.state(), r.exitCode(), r.exitSignal())).max().orElseThrow();
  }

  /**
   * A signal makes 1, as in Slurm. A job cancelled before it ran has no exit code of its own: Slurm
   * records 0:0 for it (as sacct prints), so sbatch exits 0. Any other job that ended without one
   * (a node that failed, a launch that failed) makes 1: there is no success to report.
   */
  static int status(String state, Integer exitCode, Integer exitSignal) {
    if (exitSignal != null && exitSignal != 0) {
      return 1;
    }
    if (exitCode != null) {
      return exitCode;
    }
    return "COMPLETED".equals(state) || "CANCELLED".equals(state) ? 0 : 1;
  }
}
