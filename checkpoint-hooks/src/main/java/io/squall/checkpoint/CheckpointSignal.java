package io.squall.checkpoint;

import io.squall.core.sbatch.SignalSpec;

/**
 * The signal that tells a job to checkpoint now: its own {@code --signal=[B:]SIG@secs} if it
 * gave one (sent at once on a notice: notices are shorter than most {@code @secs}), else its
 * partition's default.
 *
 * @param name the signal's name without SIG, e.g. {@code USR1}
 * @param batchOnly only the batch shell ({@code B:}), not every process of the job on every node
 */
public record CheckpointSignal(String name, boolean batchOnly) {
  public static CheckpointSignal forJob(SignalSpec jobSignal, String partitionDefault) {
    return jobSignal != null ? new CheckpointSignal(jobSignal.name(), jobSignal.batchOnly())
        : new CheckpointSignal(partitionDefault, false);
  }
}
