package io.squall.providers.gcp;

/**
 * What a machine type costs per node-hour in US dollars, on-demand and spot. GCE has no price
 * API in the Compute client, so these are list prices ({@link GcpSettings#DEFAULT_PRICES}, or
 * configured ones); 0 means unknown. Both are finite and 0 or more.
 */
public record MachinePrice(double onDemand, double spot) {
  /** A machine type no list knows: both prices unknown. */
  public static final MachinePrice UNKNOWN = new MachinePrice(0, 0);

  public MachinePrice {
    if (!(onDemand >= 0) || !(spot >= 0) || Double.isInfinite(onDemand) || Double.isInfinite(spot)) {
      throw new IllegalArgumentException("prices must be finite and >= 0: " + onDemand + ", " + spot);
    }
  }

  /** This price with the on-demand one replaced. */
  public MachinePrice withOnDemand(double usdPerHour) {
    return new MachinePrice(usdPerHour, spot);
  }

  /** This price with the spot one replaced. */
  public MachinePrice withSpot(double usdPerHour) {
    return new MachinePrice(onDemand, usdPerHour);
  }
}
