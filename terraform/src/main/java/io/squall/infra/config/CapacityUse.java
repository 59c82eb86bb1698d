package io.squall.infra.config;

/** Which capacity types a partition buys: its {@code spot} key as the controller reads it. */
public enum CapacityUse {
  SPOT_ONLY,
  ON_DEMAND_ONLY,
  SPOT_THEN_ON_DEMAND;

  public boolean spot() {
    return this != ON_DEMAND_ONLY;
  }

  public boolean onDemand() {
    return this != SPOT_ONLY;
  }

  /** The controller's values: {@code spot}, {@code on-demand}, {@code spot-then-on-demand} (its default); null for another. */
  static CapacityUse of(String value) {
    return switch (value) {
      case "spot" -> SPOT_ONLY;
      case "on-demand" -> ON_DEMAND_ONLY;
      case "spot-then-on-demand" -> SPOT_THEN_ON_DEMAND;
      default -> null;
    };
  }
}
