package io.squall.core.provision;

import io.squall.core.money.PriceCaps;
import io.squall.core.provider.CapacityType;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What the fleet may buy for one job's nodes, and why: finance's rules for that job (its QOS's
 * capacity, what its deadline needs now, its account past a soft budget) and the price caps of
 * its account and QOS. The partition's own policy and caps still apply: the planner holds a
 * launch to what its partition and every job in it allow ({@link CapacityPolicy#forJobs}).
 *
 * @param capacityTypes what the job's nodes may be bought as; empty when its rules leave nothing
 *     (spot only past a soft budget, on-demand only by its QOS): it waits, saying why
 * @param onDemandAfter when both types are allowed: how long the job waits for spot that exists
 *     but fails before on-demand; null for its partition's
 * @param caps the job's price caps (its account's, with its parents', and its QOS's)
 * @param reworkHours what one interruption of the job costs in hours of its nodes' time: the
 *     changeover (new nodes boot, the job restores) plus the work since its last checkpoint that
 *     is done again; ranks spot offerings by their expected cost of useful work
 * @param why the rules in words, for the job's detail; empty when only its partition's policy applies
 * @param until the first instant at which the same rules could say otherwise for the same job (its
 *     deadline's need grows with time); null when only a change of the job or of the rules can
 */
public record JobPurchase(Set<CapacityType> capacityTypes, Duration onDemandAfter, PriceCaps caps,
    double reworkHours, String why, Instant until) {
  /** No rule of its own: its partition's policy, no caps, no known rework. */
  public static final JobPurchase PARTITION = new JobPurchase(EnumSet.allOf(CapacityType.class), null,
      PriceCaps.NONE, 0, "", null);

  public JobPurchase {
    capacityTypes = Set.copyOf(capacityTypes);
    Objects.requireNonNull(caps, "caps");
    Objects.requireNonNull(why, "why");
    if (!(reworkHours >= 0) || Double.isInfinite(reworkHours)) {
      throw new IllegalArgumentException("reworkHours must be >= 0, not " + reworkHours);
    }
  }

  /** The capacity types a spot policy allows. */
  public static Set<CapacityType> typesOf(SpotPolicy policy) {
    return switch (policy) {
      case SPOT -> Set.of(CapacityType.SPOT);
      case ON_DEMAND -> Set.of(CapacityType.ON_DEMAND);
      case SPOT_THEN_ON_DEMAND -> Set.of(CapacityType.SPOT, CapacityType.ON_DEMAND);
    };
  }

  /**
   * This rule and one more: the capacity types both allow, the shorter wait for on-demand, the
   * reasons joined.
   */
  public JobPurchase and(SpotPolicy rule, Duration wait, String because) {
    Set<CapacityType> both = EnumSet.noneOf(CapacityType.class);
    both.addAll(capacityTypes);
    both.retainAll(typesOf(rule));
    Duration after = onDemandAfter == null ? wait : wait == null ? onDemandAfter
        : (wait.compareTo(onDemandAfter) < 0 ? wait : onDemandAfter);
    return new JobPurchase(both, after, caps, reworkHours, why.isEmpty() ? because : why + "; " + because, until);
  }

  public JobPurchase withCaps(PriceCaps more, String because) {
    return more.isNone() ? this : new JobPurchase(capacityTypes, onDemandAfter, caps.tighter(more), reworkHours,
        why.isEmpty() ? because : why + "; " + because, until);
  }

  public JobPurchase withRework(double hours) {
    return new JobPurchase(capacityTypes, onDemandAfter, caps, hours, why, until);
  }

  /** This rule, which may say otherwise from {@code at} on (null: never by itself). */
  public JobPurchase until(Instant at) {
    Instant first = until == null ? at : at == null || until.isBefore(at) ? until : at;
    return new JobPurchase(capacityTypes, onDemandAfter, caps, reworkHours, why, first);
  }
}
