package io.squall.providers.aws;

import java.util.Optional;

/**
 * The AWS Spot Instance Advisor's frequency-of-interruption ranges: the share of a spot pool's
 * capacity that Spot reclaimed during the trailing month, which AWS publishes as one of five
 * buckets, never as a number.
 *
 * <p>The fleet needs a rate, interruptions per node-hour, to weigh a spot offering's expected
 * rework. A bucket becomes one by taking its midpoint as the share of instances interrupted in a
 * month ({@code >20%}, open above, as 25 %) and spreading it evenly over the
 * {@value #HOURS_PER_MONTH} hours of an average month: {@code >20%} gives 0.25 / 730 ≈ 3.4e-4
 * per node-hour. Why that is good enough, and no better:
 * <ul>
 *   <li>The advisor's figure is a share of instances interrupted over a month, not a rate; AWS
 *       does not say how long those instances had run. Machines that run for less than a month
 *       (Squall gives idle ones back) are interrupted more often per hour than share / 730 says,
 *       so the figure is likely low, and only a starting point: the fleet weighs it as 50
 *       node-hours of evidence ({@link io.squall.core.provision.InterruptionRates}) and corrects
 *       it with the interruptions it sees.</li>
 *   <li>Every bucket goes through the same conversion, so the rates keep the advisor's order:
 *       what the ranking of offerings needs most.</li>
 *   <li>Reading the share as a constant hazard exactly, −ln(1 − share) / 730, would add at most
 *       15 % (for {@code >20%}): less than the width of a bucket.</li>
 * </ul>
 */
public enum InterruptionBucket {
  UNDER_5_PERCENT(0, "<5%", 0.025),
  FROM_5_TO_10_PERCENT(1, "5-10%", 0.075),
  FROM_10_TO_15_PERCENT(2, "10-15%", 0.125),
  FROM_15_TO_20_PERCENT(3, "15-20%", 0.175),
  OVER_20_PERCENT(4, ">20%", 0.25);

  /** 365 days × 24 hours / 12 months, rounded: the average month the advisor's share is over. */
  public static final double HOURS_PER_MONTH = 730;

  private final int index;
  private final String label;
  private final double monthlyShare;

  InterruptionBucket(int index, String label, double monthlyShare) {
    this.index = index;
    this.label = label;
    this.monthlyShare = monthlyShare;
  }

  /** The bucket the advisor labels {@code label} ({@code <5%} ... {@code >20%}), if any. */
  public static Optional<InterruptionBucket> labelled(String label) {
    for (InterruptionBucket b : values()) {
      if (b.label.equals(label)) {
        return Optional.of(b);
      }
    }
    return Optional.empty();
  }

  /** The advisor's index of this range (0 for {@code <5%} to 4 for {@code >20%}). */
  public int index() {
    return index;
  }

  /** The advisor's label: {@code <5%}, {@code 5-10%}, {@code 10-15%}, {@code 15-20%}, {@code >20%}. */
  public String label() {
    return label;
  }

  /** The share of instances taken to be interrupted in a month: the range's midpoint (25 % above 20 %). */
  public double monthlyShare() {
    return monthlyShare;
  }

  /** Interruptions per node-hour: {@link #monthlyShare()} / {@link #HOURS_PER_MONTH} (why: see the class). */
  public double perNodeHour() {
    return monthlyShare / HOURS_PER_MONTH;
  }
}
