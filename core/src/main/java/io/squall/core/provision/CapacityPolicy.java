package io.squall.core.provision;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How an elastic partition gets and gives back its nodes (Slurm's power-saving settings plus the
 * cloud choices).
 *
 * @param instanceTypes the instance types its nodes may be, in order of preference
 * @param zones the zones it may use, in order of preference; empty for every zone the provider offers
 * @param onDemandAfter with {@link SpotPolicy#SPOT_THEN_ON_DEMAND}: how long a launch waits for spot
 *     that exists but fails before on-demand is allowed (when no spot offering could be used at
 *     all, on-demand is allowed at once)
 * @param maxSpotPricePerHour price cap for spot offerings in US dollars per node-hour; null for none
 * @param suspendTime how long a node sits idle before it is given back (Slurm's SuspendTime)
 * @param resumeTimeout how long a node may take from the resume decision to its agent's
 *     registration before it is released and its job requeued (Slurm's ResumeTimeout)
 * @param minNodes nodes kept powered even when idle
 * @param unavailableFor how long an offering that failed for lack of capacity (or was just
 *     interrupted) is left alone
 * @param batchWindow how long resume requests are gathered so that a burst becomes few launch calls
 * @param maxLaunchAttempts launch calls one set of nodes may make that fail for other reasons than
 *     capacity, price or quota (those move on to the next offering) before it is released
 * @param retryBackoff the wait after a failed launch call, doubled after each further failure
 */
public record CapacityPolicy(List<String> instanceTypes, List<String> zones, SpotPolicy spot, Duration onDemandAfter,
    Double maxSpotPricePerHour, Duration suspendTime, Duration resumeTimeout, int minNodes, Duration unavailableFor,
    Duration batchWindow, int maxLaunchAttempts, Duration retryBackoff) {
  public CapacityPolicy {
    instanceTypes = List.copyOf(instanceTypes);
    zones = List.copyOf(zones);
    Objects.requireNonNull(spot, "spot");
    if (instanceTypes.isEmpty()) {
      throw new IllegalArgumentException("an elastic partition needs at least one instance type");
    }
    if (minNodes < 0 || maxLaunchAttempts < 1) {
      throw new IllegalArgumentException("minNodes must be >= 0 and maxLaunchAttempts >= 1");
    }
  }

  /** Slurm-like defaults for one instance type: spot then on-demand after 5 min, suspend after 5 min idle. */
  public static CapacityPolicy defaults(String instanceType) {
    return new CapacityPolicy(List.of(instanceType), List.of(), SpotPolicy.SPOT_THEN_ON_DEMAND, Duration.ofMinutes(5),
        null, Duration.ofMinutes(5), Duration.ofMinutes(10), 0, Duration.ofMinutes(5), Duration.ofSeconds(1), 8,
        Duration.ofSeconds(10));
  }

  public CapacityPolicy withSpot(SpotPolicy capacity) {
    return new CapacityPolicy(instanceTypes, zones, capacity, onDemandAfter, maxSpotPricePerHour, suspendTime,
        resumeTimeout, minNodes, unavailableFor, batchWindow, maxLaunchAttempts, retryBackoff);
  }

  public CapacityPolicy withOnDemandAfter(Duration wait) {
    return new CapacityPolicy(instanceTypes, zones, spot, wait, maxSpotPricePerHour, suspendTime, resumeTimeout,
        minNodes, unavailableFor, batchWindow, maxLaunchAttempts, retryBackoff);
  }
}
