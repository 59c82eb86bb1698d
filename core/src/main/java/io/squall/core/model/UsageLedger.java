package io.squall.core.model;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * Past usage, decayed with a half-life as Slurm's PriorityDecayHalfLife does: per user association
 * ({@code account/user}) the billed TRES-seconds (a partition's TRESBillingWeights times seconds:
 * Slurm's RawUsage, what fair-share reads) and the GPU-seconds (an account's GrpTRESMins on GPUs
 * counts them, as slurmctld keeps each TRES's usage beside the billed one), per QOS the GPU-seconds
 * its GrpTRESMins counts; and for each running job the instant it has been charged up to, so that
 * no second is charged twice. Immutable.
 *
 * @param asOf the instant the stored figures are decayed to: when usage was last decayed, every
 *     PriorityCalcPeriod
 * @param halfLife PriorityDecayHalfLife; zero: usage never decays
 * @param byAssociation billed TRES-seconds per association
 * @param associationGpuSeconds GPU-seconds per association
 * @param chargedUntil per running job, the end of what it has been charged for
 */
public record UsageLedger(Instant asOf, Duration halfLife, Map<String, Double> byAssociation,
    Map<String, Double> associationGpuSeconds, Map<String, Double> qosGpuSeconds, Map<JobKey, Instant> chargedUntil) {
  public UsageLedger {
    byAssociation = Map.copyOf(byAssociation);
    associationGpuSeconds = Map.copyOf(associationGpuSeconds);
    qosGpuSeconds = Map.copyOf(qosGpuSeconds);
    chargedUntil = Map.copyOf(chargedUntil);
  }

  /**
   * One job's use over a stretch of time.
   *
   * @param billingSeconds its billed TRES per second times the seconds
   * @param gpuSeconds its GPUs times the seconds
   */
  public record Use(String account, String user, String qos, double billingSeconds, double gpuSeconds) {}

  public static UsageLedger empty(Instant asOf, Duration halfLife) {
    return new UsageLedger(asOf, halfLife, Map.of(), Map.of(), Map.of(), Map.of());
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
    double factor = 1 / growth(asOf, now);
    return new UsageLedger(now, halfLife, scaled(byAssociation, factor), scaled(associationGpuSeconds, factor),
        scaled(qosGpuSeconds, factor),
        chargedUntil);
  }

  /** By how much usage decays from {@code from} to {@code to}, inverted: 2^((to - from) / half-life). */
  private double growth(Instant from, Instant to) {
    if (halfLife.isZero()) {
      return 1;
    }
    return Math.pow(2, Duration.between(from, to).toMillis() / (double) halfLife.toMillis());
  }

  private static Map<String, Double> scaled(Map<String, Double> figures, double factor) {
    Map<String, Double> out = new TreeMap<>();
    figures.forEach((k, v) -> out.put(k, v * factor));
    return out;
  }

  /**
   * Adds uses that happened at {@code at}. They are stored as of {@link #asOf}, grown by the decay
   * between the two (shrunk if {@code at} is earlier), so that decaying the ledger later gives each
   * its own age: a job's end is charged at once without decaying every other figure.
   */
  public UsageLedger plus(Collection<Use> uses, Instant at) {
    if (uses.isEmpty()) {
      return this;
    }
    double scale = growth(asOf, at);
    Map<String, Double> assoc = new TreeMap<>(byAssociation);
    Map<String, Double> gpus = new TreeMap<>(associationGpuSeconds);
    Map<String, Double> perQos = new TreeMap<>(qosGpuSeconds);
    for (Use u : uses) {
      String key = association(u.account(), u.user());
      assoc.merge(key, u.billingSeconds() * scale, Double::sum);
      gpus.merge(key, u.gpuSeconds() * scale, Double::sum);
      if (u.qos() != null) {
        perQos.merge(u.qos(), u.gpuSeconds() * scale, Double::sum);
      }
    }
    return new UsageLedger(asOf, halfLife, assoc, gpus, perQos, chargedUntil);
  }

  /** The ledger with these running jobs charged up to these instants (and no other). */
  public UsageLedger withChargedUntil(Map<JobKey, Instant> charged) {
    return new UsageLedger(asOf, halfLife, byAssociation, associationGpuSeconds, qosGpuSeconds, charged);
  }

  public double of(String account, String user) {
    return byAssociation.getOrDefault(association(account, user), 0.0);
  }
}
