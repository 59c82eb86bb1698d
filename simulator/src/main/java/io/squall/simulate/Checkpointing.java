package io.squall.simulate;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How the simulated jobs keep their work across an interruption: a checkpoint holds the job's
 * state as it was when the write began and counts once written ({@code writeTime} later). Interval
 * checkpoints are written while training goes on (asynchronous checkpointing), so they do not
 * lengthen a run; the checkpoint a job writes on its signal is its last act before it is stopped.
 *
 * @param honoursSignal whether the job, on the checkpoint signal, writes a checkpoint at once (the
 *     drain stops it as soon as it is written)
 * @param writeTime how long writing one checkpoint takes
 * @param interval the job also writes one every {@code interval} of a run, counted from the run's
 *     start (a restart restores the last checkpoint and starts counting again); null for never
 */
public record Checkpointing(boolean honoursSignal, Duration writeTime, Duration interval) {
  public Checkpointing {
    Objects.requireNonNull(writeTime, "writeTime");
    if (writeTime.isNegative() || (interval != null && (interval.isNegative() || interval.isZero()))) {
      throw new IllegalArgumentException("a checkpoint's write time must be >= 0 and its interval > 0");
    }
  }

  /** Jobs that checkpoint on the signal (and every {@code interval} as well). */
  public static Checkpointing onSignal(Duration writeTime, Duration interval) {
    return new Checkpointing(true, writeTime, interval);
  }

  /** Jobs that ignore the signal and checkpoint only every {@code interval}. */
  public static Checkpointing everyInterval(Duration interval, Duration writeTime) {
    return new Checkpointing(false, writeTime, Objects.requireNonNull(interval, "interval"));
  }

  /**
   * The instant whose state a run started at {@code runStart}, signalled at {@code signalled}
   * (null: never) and stopped at {@code stop} restarts from: the newest checkpoint written by
   * {@code stop}, or the run's start (the state it restored) when none was.
   */
  public Instant savedAt(Instant runStart, Instant signalled, Instant stop) {
    Instant saved = runStart;
    if (interval != null) {
      long usable = Duration.between(runStart, stop).minus(writeTime).toMillis();
      if (usable >= 0) {
        long k = usable / interval.toMillis();
        Instant last = runStart.plusMillis(k * interval.toMillis());
        saved = last.isAfter(saved) ? last : saved;
      }
    }
    if (honoursSignal && signalled != null && !signalled.isBefore(runStart)
        && !signalled.plus(writeTime).isAfter(stop) && signalled.isAfter(saved)) {
      saved = signalled;
    }
    return saved;
  }
}
