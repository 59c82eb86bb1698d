package io.squall.core.money;

import io.squall.core.provider.CapacityType;

/**
 * The most finance lets a GPU-hour cost, for spot and for on-demand, in US dollars; null for no
 * cap. Caps come from a partition, an account (and its parents) and a QOS; a job is held to the
 * tightest of them ({@link #tighter}).
 */
public record PriceCaps(Double spotUsdPerGpuHour, Double onDemandUsdPerGpuHour) {
  public static final PriceCaps NONE = new PriceCaps(null, null);

  public PriceCaps {
    check(spotUsdPerGpuHour, "spot");
    check(onDemandUsdPerGpuHour, "on-demand");
  }

  private static void check(Double cap, String what) {
    if (cap != null && (!(cap > 0) || cap.isInfinite())) {
      throw new IllegalArgumentException("a " + what + " price cap is US dollars per GPU-hour above 0, not " + cap);
    }
  }

  /** The cap of one capacity type; null for none. */
  public Double cap(CapacityType type) {
    return switch (type) {
      case SPOT -> spotUsdPerGpuHour;
      case ON_DEMAND -> onDemandUsdPerGpuHour;
    };
  }

  /** Whether a GPU-hour of this capacity type may cost {@code usdPerGpuHour}. */
  public boolean allows(CapacityType type, double usdPerGpuHour) {
    Double cap = cap(type);
    return cap == null || usdPerGpuHour <= cap + 1e-9;
  }

  /** Both caps at once: the lower of each. */
  public PriceCaps tighter(PriceCaps other) {
    return new PriceCaps(min(spotUsdPerGpuHour, other.spotUsdPerGpuHour),
        min(onDemandUsdPerGpuHour, other.onDemandUsdPerGpuHour));
  }

  public boolean isNone() {
    return spotUsdPerGpuHour == null && onDemandUsdPerGpuHour == null;
  }

  private static Double min(Double a, Double b) {
    return a == null ? b : b == null ? a : Double.valueOf(Math.min(a, b));
  }

  @Override
  public String toString() {
    return "spot " + text(spotUsdPerGpuHour) + ", on-demand " + text(onDemandUsdPerGpuHour) + " USD per GPU-hour";
  }

  private static String text(Double cap) {
    return cap == null ? "no cap" : "at most " + String.format(java.util.Locale.ROOT, "%.2f", cap);
  }
}
