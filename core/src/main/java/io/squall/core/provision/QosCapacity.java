package io.squall.core.provision;

/** What a QOS lets its jobs' nodes be bought as (reached with Slurm's own {@code --qos}). */
public enum QosCapacity {
  /** Spot only, waiting for spot however long: the cheapest, and the job may be interrupted. */
  SPOT_ONLY,
  /** Spot first, on-demand once spot has failed for the partition's on-demand-after. */
  SPOT_THEN_ON_DEMAND,
  /** On-demand at once: never interrupted. */
  ON_DEMAND,
  /** By the job's {@code --deadline}: {@link UniformProgress}; a job without one buys as its partition does. */
  DEADLINE
}
