package io.squall.core.priority;

import java.time.Duration;

/**
 * How fair-share is computed and usage kept: the algorithm (Slurm's PriorityFlags=NO_FAIR_TREE
 * picks classic), how often running jobs are charged and usage decayed (PriorityCalcPeriod), and
 * the decay's half-life (PriorityDecayHalfLife; zero: no decay).
 */
public record FairSharePolicy(FairShareAlgorithm algorithm, Duration calcPeriod, Duration decayHalfLife) {
  public FairSharePolicy {
    if (calcPeriod.isNegative() || calcPeriod.isZero()) {
      throw new IllegalArgumentException("the calc period must be above 0, not " + calcPeriod);
    }
    if (decayHalfLife.isNegative()) {
      throw new IllegalArgumentException("the decay half-life must be 0 or more, not " + decayHalfLife);
    }
  }

  /** Slurm's defaults: Fair Tree, PriorityCalcPeriod=5 (minutes), PriorityDecayHalfLife=7-0. */
  public static FairSharePolicy defaults() {
    return new FairSharePolicy(FairShareAlgorithm.FAIR_TREE, Duration.ofMinutes(5), Duration.ofDays(7));
  }
}
