package io.squall.core.provision;

import io.squall.core.provider.CapacityType;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** What a QOS lets its jobs' nodes be bought as (reached with Slurm's own {@code --qos}). */
public enum QosCapacity {
  /** Spot only, waiting for spot however long: the cheapest, and the job may be interrupted. */
  SPOT_ONLY(SpotPolicy.SPOT),
  /** Spot first, on-demand once spot has failed for the partition's on-demand-after. */
  SPOT_THEN_ON_DEMAND(SpotPolicy.SPOT_THEN_ON_DEMAND),
  /** On-demand at once: never interrupted. */
  ON_DEMAND(SpotPolicy.ON_DEMAND),
  /** By the job's {@code --deadline}: {@link UniformProgress}; a job without one buys as its partition does. */
  DEADLINE(null);

  private final SpotPolicy buys;

  QosCapacity(SpotPolicy buys) {
    this.buys = buys;
  }

  /** What its jobs' new machines may be bought as; empty for {@link #DEADLINE} (the deadline decides). */
  public Optional<SpotPolicy> buys() {
    return Optional.ofNullable(buys);
  }

  /** What machines already up its jobs may be placed on (the scheduler's side of the rule). */
  public Set<CapacityType> runsOn() {
    return buys == null ? EnumSet.allOf(CapacityType.class) : JobPurchase.typesOf(buys);
  }

  /** Its name in configuration and in the API: {@code spot-only}, {@code spot-then-on-demand}, ... */
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The capacity a configuration names ({@link #configName()}, any case); empty for none. */
  public static Optional<QosCapacity> byConfigName(String text) {
    for (QosCapacity c : values()) {
      if (c.configName().equals(text.strip().toLowerCase(Locale.ROOT))) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }
}
