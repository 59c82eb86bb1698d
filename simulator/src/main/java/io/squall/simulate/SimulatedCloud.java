package io.squall.simulate;

import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * The cloud the benchmarks and {@code squall simulate} run against: a price list's offerings,
 * instances registering {@link #BOOT} after their launch call, each spot offering's capacity
 * drawn from a seed between {@link #MIN_SPOT_CAPACITY} and {@link #MAX_SPOT_CAPACITY} instances,
 * a spot launch call failing for capacity with probability {@link #SPOT_ICE_PROBABILITY}, and
 * on-demand capacity unlimited. One definition, so that a what-if figure and a bench figure say
 * the same thing of the same cloud.
 */
public final class SimulatedCloud {
  public static final Duration BOOT = Duration.ofMinutes(3);
  public static final double SPOT_ICE_PROBABILITY = 0.1;
  public static final int MIN_SPOT_CAPACITY = 32;
  public static final int MAX_SPOT_CAPACITY = 128;

  private SimulatedCloud() {}

  /**
   * Each spot offering's capacity by {@link Offering#key()}, drawn from {@code draws} in catalogue
   * order; on-demand offerings are left out (unlimited).
   */
  public static Map<String, Integer> spotCapacities(List<Offering> catalogue, RandomGenerator draws) {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Offering o : catalogue) {
      if (o.capacityType() == CapacityType.SPOT) {
        out.put(o.key(), MIN_SPOT_CAPACITY + draws.nextInt(MAX_SPOT_CAPACITY - MIN_SPOT_CAPACITY + 1));
      }
    }
    return out;
  }

  /** The provider selling {@code catalogue} with these capacities, its launch failures drawn from {@code failures}. */
  public static SimulatedProvider provider(InstantSource clock, List<Offering> catalogue,
      Map<String, Integer> capacities, RandomGenerator failures) {
    SimulatedProvider provider = new SimulatedProvider(clock, catalogue, failures).bootLatency(BOOT)
        .spotInsufficientCapacityProbability(SPOT_ICE_PROBABILITY);
    for (Offering o : catalogue) {
      Integer cap = capacities.get(o.key());
      if (cap != null) {
        provider.capacity(o, cap);
      }
    }
    return provider;
  }
}
