package io.squall.api.config;

import io.squall.core.money.PriceCaps;
import io.squall.core.provider.CapacityType;
import io.squall.core.provision.CapacityPolicy;
import io.squall.core.provision.JobPurchase;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Refuses at start-up a price cap below the list price of every offering it applies to: such a
 * cap buys nothing of its capacity type, ever, and is surely a typo or a price misread (per
 * node-hour for per GPU-hour). A partition's cap applies to the offerings the partition may buy
 * (its instance types, of the capacity types its {@code spot} allows); a QOS's or an account's to
 * those of every elastic partition, since their jobs may run in any.
 *
 * <p>Only what is known at start-up is judged ({@link ListPrices}): when one offering a cap
 * applies to has no known list price (AWS spot, a type no table lists), the cap is left to run
 * time, where a job whose caps leave no offering waits with a reason that names them.
 */
final class UnreachableCaps {
  /** The cheapest known offering of one capacity type a cap applies to, priced per GPU-hour of its partition's nodes. */
  private record Cheapest(String partition, String instanceType, double usdPerGpuHour) {}

  private static final String FIX = "; raise the cap or remove it";

  private final Map<String, CapacityPolicy> elastic;
  private final ListPrices prices;

  /**
   * @param elastic the capacity policy of each elastic partition, by name, its caps already read
   * @param prices what the provider is known to sell each instance type for
   */
  UnreachableCaps(Map<String, CapacityPolicy> elastic, ListPrices prices) {
    this.elastic = elastic;
    this.prices = prices;
  }

  /** Refuses the elastic partition's own caps ({@code squall.partitions.NAME.max-*-usd-per-gpu-hour}) if unreachable. */
  void refusePartition(String partition) {
    CapacityPolicy policy = elastic.get(partition);
    for (CapacityType type : CapacityType.values()) {
      Optional<Cheapest> cheapest = cheapest(Map.of(partition, policy), type);
      if (cheapest.isPresent() && !policy.caps().allows(type, cheapest.get().usdPerGpuHour())) {
        throw new IllegalStateException("squall.partitions." + partition + "." + capKey(type) + ": "
            + policy.caps().cap(type) + " is below the list price of every " + name(type)
            + " offering the partition may buy, the cheapest being " + cheapest.get().instanceType() + " at "
            + usd(cheapest.get()) + " USD per GPU-hour, so it would never buy " + name(type) + FIX);
      }
    }
  }

  /**
   * Refuses the caps of a QOS or an account, read under {@code key} ({@code squall.qos.NAME.},
   * {@code squall.accounts.NAME.}), if unreachable in every elastic partition.
   */
  void refuseEverywhere(String key, PriceCaps caps) {
    for (CapacityType type : CapacityType.values()) {
      Optional<Cheapest> cheapest = cheapest(elastic, type);
      if (cheapest.isPresent() && !caps.allows(type, cheapest.get().usdPerGpuHour())) {
        throw new IllegalStateException(key + capKey(type) + ": " + caps.cap(type) + " is below the list price of every "
            + name(type) + " offering of every elastic partition, the cheapest being " + cheapest.get().instanceType()
            + " in partition " + cheapest.get().partition() + " at " + usd(cheapest.get())
            + " USD per GPU-hour, so its jobs would never get " + name(type) + FIX);
      }
    }
  }

  /**
   * The cheapest list price per GPU-hour among the offerings of {@code type} these partitions
   * may buy; empty when they buy none of that type or when one of them has no known list price
   * (it could be the cheap one).
   */
  private Optional<Cheapest> cheapest(Map<String, CapacityPolicy> partitions, CapacityType type) {
    Cheapest best = null;
    for (Map.Entry<String, CapacityPolicy> p : partitions.entrySet()) {
      CapacityPolicy policy = p.getValue();
      if (!JobPurchase.typesOf(policy.spot()).contains(type)) {
        continue;
      }
      for (String instanceType : policy.instanceTypes()) {
        OptionalDouble usd = prices.usdPerNodeHour(instanceType, type);
        if (usd.isEmpty()) {
          return Optional.empty();
        }
        double perGpu = policy.usdPerGpuHour(usd.getAsDouble());
        if (best == null || perGpu < best.usdPerGpuHour()) {
          best = new Cheapest(p.getKey(), instanceType, perGpu);
        }
      }
    }
    return Optional.ofNullable(best);
  }

  private static String usd(Cheapest c) {
    return String.format(Locale.ROOT, "%.2f", c.usdPerGpuHour());
  }

  private static String capKey(CapacityType type) {
    return switch (type) {
      case SPOT -> "max-spot-usd-per-gpu-hour";
      case ON_DEMAND -> "max-on-demand-usd-per-gpu-hour";
    };
  }

  private static String name(CapacityType type) {
    return switch (type) {
      case SPOT -> "spot";
      case ON_DEMAND -> "on-demand";
    };
  }
}
