package io.squall.core.model;

/** Slurm's node states, power saving included. */
public enum NodeState {
  /** Powered down (or not yet launched): costs nothing, can be resumed. */
  CLOUD,
  POWERING_UP,
  IDLE,
  MIXED,
  ALLOCATED,
  /** Running jobs may finish; no new work. */
  DRAINING,
  DOWN,
  POWERING_DOWN;

  /** Whether new work may be placed on the node now. */
  public boolean acceptsWork() {
    return switch (this) {
      case IDLE, MIXED, ALLOCATED -> true;
      case CLOUD, POWERING_UP, DRAINING, DOWN, POWERING_DOWN -> false;
    };
  }

  /**
   * Whether work may be allocated to the node now and start once it is up: a powered-down node
   * is resumed for it, one powering up is on its way (Slurm's power saving).
   */
  public boolean resumable() {
    return switch (this) {
      case CLOUD, POWERING_UP -> true;
      case IDLE, MIXED, ALLOCATED, DRAINING, DOWN, POWERING_DOWN -> false;
    };
  }
}
