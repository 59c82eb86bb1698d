package io.squall.core.model;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * Past GPU usage in GPU-seconds, decayed with a half-life as Slurm's PriorityDecayHalfLife does,
 * per user association ({@code account/user}) and per QOS. Immutable: recording returns a new
 * ledger.
 *
 * @param asOf the instant the stored figures are decayed to
 */
public record UsageLedger(Instant asOf, Duration halfLife, Map<String, Double> byAssociation,
    Map<String, Double> qosGpuSeconds) {
  public UsageLedger {
    byAssociation = Map.copyOf(byAssociation);
    qosGpuSeconds = Map.copyOf(qosGpuSeconds);
  }

  public static UsageLedger empty(Instant asOf, Duration halfLife) {
    return new UsageLedger(asOf, halfLife, Map.of(), Map.of());
  }

  public static String association(String account, String user) {
    return account + "/" + user;
  }

  /**
   * Decays every figure to {@code now}: the associations' usage (fair-share) and the QOS totals
   * its GrpTRESMins limits count, as Slurm decays a QOS's usage with PriorityDecayHalfLife unless
   * the QOS has the NoDecay flag (not modelled: every QOS decays).
   */
  public UsageLedger decayedTo(Instant now) {
    if (!now.isAfter(asOf)) {
      return this;
    }
    double factor = Math.pow(0.5, Duration.between(asOf, now).toMillis() / (double) halfLife.toMillis());
    return new UsageLedger(now, halfLife, scaled(byAssociation, factor), scaled(qosGpuSeconds, factor));
  }

  private static Map<String, Double> scaled(Map<String, Double> figures, double factor) {
    Map<String, Double> out = new TreeMap<>();
    figures.forEach((k, v) -> out.put(k, v * factor));
    return out;
  }

  /** Adds usage measured up to {@link #asOf}. */
  public UsageLedger plus(String account, String user, String qos, double gpuSeconds) {
    Map<String, Double> assoc = new TreeMap<>(byAssociation);
    assoc.merge(association(account, user), gpuSeconds, Double::sum);
    Map<String, Double> perQos = new TreeMap<>(qosGpuSeconds);
    perQos.merge(qos, gpuSeconds, Double::sum);
    return new UsageLedger(asOf, halfLife, assoc, perQos);
  }

  public double of(String account, String user) {
    return byAssociation.getOrDefault(association(account, user), 0.0);
  }
}
