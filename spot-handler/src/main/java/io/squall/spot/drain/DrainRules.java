package io.squall.spot.drain;

import java.time.Duration;
import java.util.Objects;

/**
 * A partition's rules for draining jobs ({@code squall.partitions.NAME.*}).
 *
 * @param margin how long before the machine goes a job is stopped at the latest
 * @param maxRestarts restarts after interruptions before the job is held instead
 * @param restartBackoff the wait before the second restart, doubled per restart after it
 * @param checkpointWait how long a job a user asked to requeue or pause gets to checkpoint
 */
public record DrainRules(Duration margin, int maxRestarts, Duration restartBackoff, Duration checkpointWait) {
  public DrainRules {
    Objects.requireNonNull(margin, "margin");
    Objects.requireNonNull(restartBackoff, "restartBackoff");
    Objects.requireNonNull(checkpointWait, "checkpointWait");
    if (margin.isNegative() || maxRestarts < 0 || restartBackoff.isNegative() || checkpointWait.isNegative()) {
      throw new IllegalArgumentException("margin, max restarts, restart backoff and checkpoint wait must not be negative");
    }
  }
}
