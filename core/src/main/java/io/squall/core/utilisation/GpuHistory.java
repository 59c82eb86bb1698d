package io.squall.core.utilisation;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The samples of the last {@code keep}, at most one per {@code interval}: the controller offers
 * one on every tick and this decides whether it is due, so a busy tick rate does not grow it.
 *
 * <p>Not thread-safe: the caller serialises offers and reads.
 */
public final class GpuHistory {
  private final Duration interval;
  private final Duration keep;
  private final ArrayDeque<GpuSample> samples = new ArrayDeque<>();

  /**
   * @param interval the least time between two samples kept (positive)
   * @param keep how far back samples are kept (at least {@code interval})
   */
  public GpuHistory(Duration interval, Duration keep) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("the sampling interval must be positive, not " + interval);
    }
    if (keep.compareTo(interval) < 0) {
      throw new IllegalArgumentException("samples must be kept at least one interval (" + interval + "), not " + keep);
    }
    this.interval = interval;
    this.keep = keep;
  }

  /** Whether a sample taken at {@code now} would be kept: the first, or one {@code interval} after the last. */
  public boolean due(Instant now) {
    return samples.isEmpty() || !now.isBefore(samples.peekLast().at().plus(interval));
  }

  /** Keeps {@code sample} when it is {@link #due}, and forgets what is older than {@code keep} before it. */
  public void offer(GpuSample sample) {
    Objects.requireNonNull(sample, "sample");
    if (!due(sample.at())) {
      return;
    }
    samples.addLast(sample);
    Instant horizon = sample.at().minus(keep);
    while (samples.peekFirst().at().isBefore(horizon)) {
      samples.removeFirst();
    }
  }

  /** The samples taken at or after {@code since}, oldest first. */
  public List<GpuSample> since(Instant since) {
    List<GpuSample> out = new ArrayList<>();
    for (GpuSample s : samples) {
      if (!s.at().isBefore(since)) {
        out.add(s);
      }
    }
    return out;
  }

  public Duration interval() {
    return interval;
  }
}
