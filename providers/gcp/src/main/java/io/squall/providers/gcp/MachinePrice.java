package io.squall.providers.gcp;

/**
 * What a machine type costs per node-hour in US dollars, on-demand and spot. GCE has no price
 * API in the Compute client, so these are list prices ({@link GcpSettings#DEFAULT_PRICES}); 0
 * means unknown.
 */
public record MachinePrice(double onDemand, double spot) {
  public MachinePrice {
    if (!(onDemand >= 0) || !(spot >= 0)) {
      throw new IllegalArgumentException("prices must be >= 0: " + onDemand + ", " + spot);
    }
  }
}
