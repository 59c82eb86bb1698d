package io.squall.core.provision;

/** Finance's rule for a partition: which capacity types its nodes may be bought as. */
public enum SpotPolicy {
  /** Spot only: cheapest, may wait for capacity and may be interrupted. */
  SPOT,
  /** On-demand only: dearest, never interrupted. */
  ON_DEMAND,
  /** Spot first; on-demand once a launch has waited {@link CapacityPolicy#onDemandAfter()} for spot. */
  SPOT_THEN_ON_DEMAND
}
