package io.squall.core.provision;

import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * What the controller has learnt about offerings by using them: which failed for lack of capacity
 * (or were just interrupted) and until when they are left alone, with the provider's words for
 * it. Quota errors close a whole capacity type, since every offering of it counts against the
 * same limit.
 *
 * <p>Not thread-safe: the power planner's owner calls it from one thread.
 */
public final class OfferingBook {
  /** @param reclaimed the cloud took machines of the offering back (rather than refusing a launch) */
  private record Mark(Instant until, String reason, boolean reclaimed) {}

  private final Map<String, Mark> offerings = new HashMap<>();
  private final Map<CapacityType, Mark> capacityTypes = new HashMap<>();

  /** Leaves {@code offering} alone until {@code until}, for {@code reason} (a failed launch). */
  public void markUnavailable(Offering offering, Instant until, String reason) {
    mark(offering, new Mark(until, reason, false));
  }

  /**
   * The cloud is taking machines of {@code offering} back (a spot interruption): it is left alone
   * until {@code until}, and counts as no spot at all for a replacement (see {@link #reclaimed}).
   */
  public void markReclaimed(Offering offering, Instant until, String reason) {
    mark(offering, new Mark(until, reason, true));
  }

  private void mark(Offering offering, Mark mark) {
    offerings.merge(offering.key(), mark, (a, b) -> a.until().isAfter(b.until()) ? a : b);
  }

  /** Whether the offering is left alone now because the cloud took its machines back. */
  public boolean reclaimed(Offering offering, Instant now) {
    Mark mark = offerings.get(offering.key());
    return mark != null && mark.reclaimed() && now.isBefore(mark.until());
  }

  /**
   * Learns from a failed launch: capacity and price errors close the offering for the policy's
   * {@code unavailableFor}, quota errors every offering of its capacity type for twice that.
   * Other failures say nothing about the offering.
   */
  public void recordFailure(Offering offering, ProviderException failure, Instant now, CapacityPolicy policy) {
    switch (failure.kind()) {
      case INSUFFICIENT_CAPACITY, PRICE_TOO_HIGH ->
          markUnavailable(offering, now.plus(policy.unavailableFor()), failure.getMessage());
      case QUOTA_EXCEEDED -> capacityTypes.put(offering.capacityType(),
          new Mark(now.plus(policy.unavailableFor().multipliedBy(2)), failure.getMessage(), false));
      case THROTTLED, TRANSIENT, UNAUTHORIZED, NOT_FOUND, INVALID -> { }
    }
  }

  public boolean available(Offering offering, Instant now) {
    return why(offering, now) == null;
  }

  /** When the next offering (or capacity type) left alone now may be tried again; null when none is. */
  public Instant nextRelease(Instant now) {
    Instant next = null;
    for (Mark m : offerings.values()) {
      next = earliestEnd(next, m, now);
    }
    for (Mark m : capacityTypes.values()) {
      next = earliestEnd(next, m, now);
    }
    return next;
  }

  /** The earlier of {@code next} and the end of the mark, when that is after {@code now}. */
  private static Instant earliestEnd(Instant next, Mark m, Instant now) {
    return m.until().isAfter(now) && (next == null || m.until().isBefore(next)) ? m.until() : next;
  }

  /** Why the offering is left alone now (the provider's error text), or null when it is not. */
  public String why(Offering offering, Instant now) {
    Mark type = capacityTypes.get(offering.capacityType());
    if (type != null && now.isBefore(type.until())) {
      return type.reason();
    }
    Mark mark = offerings.get(offering.key());
    return mark != null && now.isBefore(mark.until()) ? mark.reason() : null;
  }
}
