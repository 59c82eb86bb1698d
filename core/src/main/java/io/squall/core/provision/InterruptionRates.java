package io.squall.core.provision;

import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * How often the cloud takes a spot offering's machines back, per node-hour: what the provider
 * publishes (AWS Spot Advisor's bucket), corrected by what this cluster saw. The estimate is the
 * published rate weighted as {@link #PRIOR_NODE_HOURS} node-hours of evidence, plus the
 * interruptions counted over the spot node-hours observed, so a few hours say little and a
 * long run says what is true here. On-demand machines are not interrupted: 0.
 *
 * <p>Not thread-safe: the fleet's one thread updates and reads it.
 */
public final class InterruptionRates {
  /** How much the published rate weighs, in node-hours of observation. */
  public static final double PRIOR_NODE_HOURS = 50;

  private static final class Seen {
    /** Node time in whole milliseconds: the same total however the fleet's ticks cut it up. */
    long nodeMillis;
    long interruptions;
  }

  private final Map<String, Seen> seen = new HashMap<>();

  /** A spot machine of {@code offering} ran for {@code time}. */
  public void ran(Offering offering, Duration time) {
    if (offering.capacityType() == CapacityType.SPOT && !time.isNegative()) {
      seen.computeIfAbsent(offering.key(), k -> new Seen()).nodeMillis += time.toMillis();
    }
  }

  /** The cloud took back a machine of {@code offering}. */
  public void interrupted(Offering offering) {
    if (offering.capacityType() == CapacityType.SPOT) {
      seen.computeIfAbsent(offering.key(), k -> new Seen()).interruptions++;
    }
  }

  /**
   * Interruptions per node-hour expected of the offering.
   *
   * @param published the provider's own figure per node-hour (0 when it publishes none)
   */
  public double perNodeHour(Offering offering, double published) {
    if (offering.capacityType() != CapacityType.SPOT) {
      return 0;
    }
    Seen s = seen.get(offering.key());
    if (s == null) {
      return published;
    }
    return (published * PRIOR_NODE_HOURS + s.interruptions) / (PRIOR_NODE_HOURS + s.nodeMillis / 3_600_000.0);
  }
}
