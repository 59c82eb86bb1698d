package io.squall.core.money;

import java.time.Instant;
import java.util.Objects;

/**
 * An offering's price while it was in force: from {@code from} (inclusive) to {@code to}
 * (exclusive; null while it still is).
 *
 * @param offering the offering's key ({@code p5.48xlarge/us-east-1a/SPOT})
 * @param usdPerHour US dollars per node-hour
 */
public record PricePoint(String offering, double usdPerHour, Instant from, Instant to) {
  public PricePoint {
    Objects.requireNonNull(offering, "offering");
    Objects.requireNonNull(from, "from");
    if (!(usdPerHour >= 0) || Double.isInfinite(usdPerHour)) {
      throw new IllegalArgumentException("offering " + offering + ": a price is a finite number >= 0, not " + usdPerHour);
    }
    if (to != null && !to.isAfter(from)) {
      throw new IllegalArgumentException("offering " + offering + ": a price ends after it begins (" + from + ", " + to + ")");
    }
  }

  /** Whether the price was in force at {@code t}. */
  public boolean covers(Instant t) {
    return !t.isBefore(from) && (to == null || t.isBefore(to));
  }

  PricePoint endingAt(Instant end) {
    return new PricePoint(offering, usdPerHour, from, end);
  }
}
