package io.squall.core.provision;

import io.squall.core.provider.CapacityType;
import java.util.EnumSet;
import java.util.Set;

/** What a QOS lets its jobs' nodes be bought as (reached with Slurm's own {@code --qos}). */
public enum QosCapacity {
  /** Spot only, waiting for spot however long: the cheapest, and the job may be interrupted. */
  SPOT_ONLY,
  /** Spot first, on-demand once spot has failed for the partition's on-demand-after. */
  SPOT_THEN_ON_DEMAND,
  /** On-demand at once: never interrupted. */
  ON_DEMAND,
  /** By the job's {@code --deadline}: {@link UniformProgress}; a job without one buys as its partition does. */
  DEADLINE;

  /** What machines already up its jobs may be placed on (the scheduler's side of the rule). */
  public Set<CapacityType> runsOn() {
    return switch (this) {
      case SPOT_ONLY -> EnumSet.of(CapacityType.SPOT);
      case ON_DEMAND -> EnumSet.of(CapacityType.ON_DEMAND);
      case SPOT_THEN_ON_DEMAND, DEADLINE -> EnumSet.allOf(CapacityType.class);
    };
  }
}
