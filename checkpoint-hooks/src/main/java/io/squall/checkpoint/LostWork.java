package io.squall.checkpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What an interruption cost a job: the GPU time since its last checkpoint of this run (or since
 * this run started, when it has none), up to when it was stopped.
 */
public final class LostWork {
  private LostWork() {}

  /**
   * @param runStarted when the interrupted run started
   * @param latest the job's latest checkpoint, if any (older ones than the run count as none)
   * @param stopped when the job was stopped
   * @param gpus the GPUs the job held
   */
  public static double gpuSeconds(Instant runStarted, Optional<Checkpoint> latest, Instant stopped, int gpus) {
    Instant safe = latest.map(Checkpoint::registered).filter(t -> t.isAfter(runStarted)).orElse(runStarted);
    return Math.max(0, Duration.between(safe, stopped).toMillis() / 1000.0) * gpus;
  }
}
