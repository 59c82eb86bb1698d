package io.squall.checkpoint;

import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * A checkpoint a job registered.
 *
 * @param step the job's own progress counter (0 or more)
 * @param path where it lies: an absolute path or an object-store URI
 * @param registered when it was safe: its registration, or for a file found by pattern its write
 */
public record Checkpoint(long step, String path, Instant registered) {
  /** Newer is greater: the higher step, then the later registration, then the path. */
  public static final Comparator<Checkpoint> ORDER = Comparator.comparingLong(Checkpoint::step)
      .thenComparing(Checkpoint::registered).thenComparing(Checkpoint::path);

  public Checkpoint {
    if (step < 0) {
      throw new IllegalArgumentException("step: must be 0 or more, not " + step);
    }
  }

  /** The checkpoint a restart restores from: the highest step, the latest among equals. */
  public static Optional<Checkpoint> latest(Collection<Checkpoint> checkpoints) {
    return checkpoints.stream().max(ORDER);
  }

  /** Whether it was taken at or after {@code t} (e.g. in answer to a notice received then). */
  public boolean takenSince(Instant t) {
    return !registered.isBefore(t);
  }
}
