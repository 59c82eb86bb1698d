package io.squall.api.money;

import io.squall.api.config.ClusterLayout;
import io.squall.api.store.PriceRepository;
import io.squall.core.model.Partition;
import io.squall.core.money.PriceSeries;
import io.squall.core.provider.CapacityType;
import io.squall.core.provision.CapacityPolicy;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a GPU-hour costs now in each partition, cheapest and dearest, among the offerings its
 * policy may buy (spot, on-demand or both), from the prices in force as the fleet listed them.
 * A static partition's nodes bill nothing: 0.
 */
@Singleton
public final class PartitionPrices {
  /** US dollars per GPU-hour: the cheapest offering the partition may buy and the dearest. */
  public record Range(double cheapest, double dearest) {}

  private final ClusterLayout layout;
  private final PriceRepository prices;

  public PartitionPrices(ClusterLayout layout, PriceRepository prices) {
    this.layout = layout;
    this.prices = prices;
  }

  /** Each partition's range; a partition whose prices are not known yet is left out. */
  public Map<String, Range> perGpuHour() {
    PriceSeries series = prices.series();
    Map<String, Range> out = new TreeMap<>();
    for (Partition p : layout.partitions()) {
      range(p, series).ifPresent(r -> out.put(p.name(), r));
    }
    return out;
  }

  /**
   * The most a GPU-hour may cost now in each partition, by capacity type it may buy (a budget's
   * worst case); infinite for a type whose prices are not known yet, none for a static partition.
   */
  public Map<String, Map<CapacityType, Double>> worstPerGpuHour() {
    PriceSeries series = prices.series();
    Map<String, Map<CapacityType, Double>> out = new TreeMap<>();
    for (Partition p : layout.partitions()) {
      out.put(p.name(), policy(p).map(c -> c.worstPerGpuHour(series)).orElse(Map.of()));
    }
    return out;
  }

  private Optional<Range> range(Partition p, PriceSeries series) {
    Optional<CapacityPolicy> policy = policy(p);
    if (policy.isEmpty()) {
      return Optional.of(new Range(0, 0));
    }
    return policy.get().gpuHourPrices(series).map(r -> new Range(r.cheapest(), r.dearest()));
  }

  /** The partition's policy priced per GPU of its nodes; empty for a static partition (nothing billed). */
  private Optional<CapacityPolicy> policy(Partition p) {
    CapacityPolicy policy = layout.policies().get(p.name());
    int gpus = p.nodes().stream().mapToInt(n -> layout.node(n).gpus()).max().orElse(0);
    return policy == null || gpus == 0 ? Optional.empty() : Optional.of(policy.withCaps(policy.caps(), gpus));
  }
}
