package io.squall.api.spot;

import io.squall.checkpoint.CheckpointFiles;
import io.squall.spot.drain.DrainRules;
import java.time.Duration;

/**
 * A partition's rules for interrupted jobs ({@code squall.partitions.NAME.*}).
 *
 * @param signal the checkpoint signal of jobs without {@code --signal} (e.g. {@code USR1})
 * @param directory where per-job checkpoint directories live: a path (shared by the nodes) or an
 *     object-store URI; each job's is {@code directory/JOBKEY}, kept across requeues
 * @param pattern a glob; files matching it in a job's directory count as registered checkpoints
 *     (step: the last number in the name), or null
 * @param maxRestarts restarts after interruptions before the job is held instead
 * @param restartBackoff the wait before the n-th restart: this, doubled per earlier restart
 * @param margin how long before the machine goes the gang is stopped at the latest
 * @param checkpointWait how long a job asked to requeue or pause by a user gets to checkpoint
 */
public record CheckpointPolicy(String signal, String directory, String pattern, int maxRestarts,
    Duration restartBackoff, Duration margin, Duration checkpointWait) {

  /** The job's checkpoint directory. */
  public String directoryOf(String jobKey) {
    return CheckpointFiles.directoryOf(directory, jobKey);
  }

  /** The rules the drain and the requeue decision follow. */
  public DrainRules drainRules() {
    return new DrainRules(margin, maxRestarts, restartBackoff, checkpointWait);
  }

  /** Whether checkpoints lie on a filesystem (not an object store). */
  public boolean isPath() {
    return CheckpointFiles.isPath(directory);
  }
}
