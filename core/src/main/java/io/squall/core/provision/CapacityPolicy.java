package io.squall.core.provision;

import io.squall.core.money.PriceCaps;
import io.squall.core.money.PricePoint;
import io.squall.core.money.PriceSeries;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

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
 * @param caps the partition's price caps per GPU-hour (finance's, beside the spot cap per node-hour)
 * @param gpusPerNode the GPUs of the partition's node template: an offering's price per GPU-hour
 *     is its node-hour price over these (over 1 for nodes without GPUs)
 */
public record CapacityPolicy(List<String> instanceTypes, List<String> zones, SpotPolicy spot, Duration onDemandAfter,
    Double maxSpotPricePerHour, Duration suspendTime, Duration resumeTimeout, int minNodes, Duration unavailableFor,
    Duration batchWindow, int maxLaunchAttempts, Duration retryBackoff, PriceCaps caps, int gpusPerNode) {
  public CapacityPolicy {
    instanceTypes = List.copyOf(instanceTypes);
    zones = List.copyOf(zones);
    Objects.requireNonNull(spot, "spot");
    Objects.requireNonNull(caps, "caps");
    if (gpusPerNode < 0) {
      throw new IllegalArgumentException("gpusPerNode must be >= 0");
    }
    if (instanceTypes.isEmpty()) {
      throw new IllegalArgumentException("an elastic partition needs at least one instance type");
    }
    if (minNodes < 0 || maxLaunchAttempts < 1) {
      throw new IllegalArgumentException("minNodes must be >= 0 and maxLaunchAttempts >= 1");
    }
  }

  /** A policy with no price caps per GPU-hour, for nodes of 8 GPUs (an H100 or A100 machine). */
  public CapacityPolicy(List<String> instanceTypes, List<String> zones, SpotPolicy spot, Duration onDemandAfter,
      Double maxSpotPricePerHour, Duration suspendTime, Duration resumeTimeout, int minNodes, Duration unavailableFor,
      Duration batchWindow, int maxLaunchAttempts, Duration retryBackoff) {
    this(instanceTypes, zones, spot, onDemandAfter, maxSpotPricePerHour, suspendTime, resumeTimeout, minNodes,
        unavailableFor, batchWindow, maxLaunchAttempts, retryBackoff, PriceCaps.NONE, 8);
  }

  /** Slurm-like defaults for one instance type: spot then on-demand after 5 min, suspend after 5 min idle. */
  public static CapacityPolicy defaults(String instanceType) {
    return new CapacityPolicy(List.of(instanceType), List.of(), SpotPolicy.SPOT_THEN_ON_DEMAND, Duration.ofMinutes(5),
        null, Duration.ofMinutes(5), Duration.ofMinutes(10), 0, Duration.ofMinutes(5), Duration.ofSeconds(1), 8,
        Duration.ofSeconds(10));
  }

  public CapacityPolicy withSpot(SpotPolicy capacity) {
    return new CapacityPolicy(instanceTypes, zones, capacity, onDemandAfter, maxSpotPricePerHour, suspendTime,
        resumeTimeout, minNodes, unavailableFor, batchWindow, maxLaunchAttempts, retryBackoff, caps, gpusPerNode);
  }

  public CapacityPolicy withOnDemandAfter(Duration wait) {
    return new CapacityPolicy(instanceTypes, zones, spot, wait, maxSpotPricePerHour, suspendTime, resumeTimeout,
        minNodes, unavailableFor, batchWindow, maxLaunchAttempts, retryBackoff, caps, gpusPerNode);
  }

  public CapacityPolicy withCaps(PriceCaps perGpuHour, int gpus) {
    return new CapacityPolicy(instanceTypes, zones, spot, onDemandAfter, maxSpotPricePerHour, suspendTime,
        resumeTimeout, minNodes, unavailableFor, batchWindow, maxLaunchAttempts, retryBackoff, perGpuHour, gpus);
  }

  /** The offering's price per GPU-hour on this partition's nodes, in US dollars. */
  public double usdPerGpuHour(Offering o) {
    return usdPerGpuHour(o.pricePerHour());
  }

  /** A node-hour price in US dollars as a GPU-hour price on this partition's nodes. */
  public double usdPerGpuHour(double usdPerNodeHour) {
    return usdPerNodeHour / Math.max(1, gpusPerNode);
  }

  /** Whether the partition's caps allow the offering: the spot cap per node-hour and the caps per GPU-hour. */
  public boolean priceAllowed(Offering o) {
    boolean nodeCap = o.capacityType() != CapacityType.SPOT || maxSpotPricePerHour == null
        || o.pricePerHour() <= maxSpotPricePerHour;
    return nodeCap && caps.allows(o.capacityType(), usdPerGpuHour(o));
  }

  /**
   * The policy for one launch of nodes these jobs hold: the capacity types the partition and
   * every job allow, the shortest wait for on-demand any of them asks, the tightest caps. Empty
   * when no capacity type is left (a spot-only job in an on-demand partition, or beside an
   * on-demand-only job).
   */
  public Optional<CapacityPolicy> forJobs(List<JobPurchase> jobs) {
    Set<CapacityType> types = EnumSet.noneOf(CapacityType.class);
    types.addAll(JobPurchase.typesOf(spot));
    Duration wait = onDemandAfter;
    PriceCaps tightest = caps;
    for (JobPurchase j : jobs) {
      types.retainAll(j.capacityTypes());
      if (j.onDemandAfter() != null && j.onDemandAfter().compareTo(wait) < 0) {
        wait = j.onDemandAfter();
      }
      tightest = tightest.tighter(j.caps());
    }
    if (types.isEmpty()) {
      return Optional.empty();
    }
    SpotPolicy policy = types.size() == 2 ? SpotPolicy.SPOT_THEN_ON_DEMAND
        : types.contains(CapacityType.SPOT) ? SpotPolicy.SPOT : SpotPolicy.ON_DEMAND;
    return Optional.of(new CapacityPolicy(instanceTypes, zones, policy, wait, maxSpotPricePerHour, suspendTime,
        resumeTimeout, minNodes, unavailableFor, batchWindow, maxLaunchAttempts, retryBackoff, tightest, gpusPerNode));
  }

  /** US dollars per GPU-hour: the cheapest offering a partition may buy now and the dearest. */
  public record GpuHourPrices(double cheapest, double dearest) {}

  /**
   * What a GPU-hour costs now among the offerings this policy may buy (its types, zones, capacity
   * types and caps), from the prices in force; empty while none is known. {@code sbatch
   * --test-only}'s range, in the controller and the simulator.
   */
  public Optional<GpuHourPrices> gpuHourPrices(PriceSeries series) {
    double cheapest = Double.POSITIVE_INFINITY;
    double dearest = -1;
    for (GpuHourPrices r : pricesByType(series).values()) {
      cheapest = Math.min(cheapest, r.cheapest());
      dearest = Math.max(dearest, r.dearest());
    }
    return dearest < 0 ? Optional.empty() : Optional.of(new GpuHourPrices(cheapest, dearest));
  }

  /**
   * The most a GPU-hour may cost now for each capacity type this policy may buy and some offering
   * is priced for: a budget's worst case, in the controller and the simulator. While no price at
   * all is known yet (before the fleet's first listing), infinite for every type it may buy, so
   * that no budgeted job starts blind. A type no offering is priced for once others are (a
   * provider that sells no spot) is left out: the fleet cannot buy it either.
   */
  public Map<CapacityType, Double> worstPerGpuHour(PriceSeries series) {
    Map<CapacityType, GpuHourPrices> known = pricesByType(series);
    Map<CapacityType, Double> out = new EnumMap<>(CapacityType.class);
    for (CapacityType t : JobPurchase.typesOf(spot)) {
      if (known.isEmpty()) {
        out.put(t, Double.POSITIVE_INFINITY);
      } else if (known.containsKey(t)) {
        out.put(t, known.get(t).dearest());
      }
    }
    return out;
  }

  /** The cheapest and dearest GPU-hour in force per capacity type among the offerings this policy may buy. */
  private Map<CapacityType, GpuHourPrices> pricesByType(PriceSeries series) {
    Set<CapacityType> types = JobPurchase.typesOf(spot);
    Map<CapacityType, GpuHourPrices> out = new EnumMap<>(CapacityType.class);
    for (PricePoint pp : series.all()) {
      if (pp.to() != null) {
        continue;
      }
      Offering o = Offering.ofKey(pp.offering(), pp.usdPerHour());
      if (instanceTypes.contains(o.instanceType()) && (zones.isEmpty() || zones.contains(o.zone()))
          && types.contains(o.capacityType()) && priceAllowed(o)) {
        double p = usdPerGpuHour(o);
        out.merge(o.capacityType(), new GpuHourPrices(p, p),
            (a, b) -> new GpuHourPrices(Math.min(a.cheapest(), p), Math.max(a.dearest(), p)));
      }
    }
    return out;
  }

}
