package io.squall.core.provider;

/** How a cloud sells a node: spot (cheap, can be taken back) or on-demand (dear, stays). */
public enum CapacityType {
  SPOT,
  ON_DEMAND
}
