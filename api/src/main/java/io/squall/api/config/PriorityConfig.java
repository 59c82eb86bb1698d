package io.squall.api.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.squall.core.priority.FairShareAlgorithm;
import io.squall.core.priority.FairSharePolicy;
import io.squall.core.priority.PriorityWeights;
import java.time.Duration;

/**
 * Slurm's PriorityWeight* settings, PriorityMaxAge, PriorityFlags=ACCRUE_ALWAYS,
 * SMALL_RELATIVE_TO_TIME and NO_FAIR_TREE, PriorityCalcPeriod and PriorityDecayHalfLife
 * ({@code squall.priority.*}); unset values keep {@link PriorityWeights#defaults()}, Slurm's default
 * of aging jobs only while they are eligible, of the job size factor without the time limit, and
 * {@link FairSharePolicy#defaults()} (Fair Tree, 5 minutes, 7 days).
 */
@ConfigurationProperties("squall.priority")
public class PriorityConfig {
  private static final PriorityWeights DEFAULTS = PriorityWeights.defaults();
  private long weightAge = DEFAULTS.age();
  private long weightFairshare = DEFAULTS.fairShare();
  private long weightJobSize = DEFAULTS.jobSize();
  private long weightPartition = DEFAULTS.partition();
  private long weightQos = DEFAULTS.qos();
  private Duration maxAge = DEFAULTS.maxAge();
  private boolean accrueAlways;
  private boolean smallRelativeToTime;
  private boolean favorSmall;
  private String fairshare = FairSharePolicy.defaults().algorithm().configName();
  private Duration calcPeriod = FairSharePolicy.defaults().calcPeriod();
  private Duration decayHalfLife = FairSharePolicy.defaults().decayHalfLife();

  public PriorityWeights weights() {
    return new PriorityWeights(weightAge, weightFairshare, weightJobSize, weightPartition, weightQos, maxAge);
  }

  /**
   * The fair-share algorithm and how usage is charged and decayed.
   *
   * @throws IllegalStateException naming the key that is wrong
   */
  public FairSharePolicy fairSharePolicy() {
    FairShareAlgorithm algorithm;
    try {
      algorithm = FairShareAlgorithm.parse(fairshare);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("squall.priority.fairshare: " + e.getMessage(), e);
    }
    if (calcPeriod == null || calcPeriod.isNegative() || calcPeriod.isZero()) {
      throw new IllegalStateException("squall.priority.calc-period: must be above 0, not " + calcPeriod);
    }
    if (decayHalfLife == null || decayHalfLife.isNegative()) {
      throw new IllegalStateException("squall.priority.decay-half-life: must be 0 (no decay) or more, not "
          + decayHalfLife);
    }
    return new FairSharePolicy(algorithm, calcPeriod, decayHalfLife);
  }

  public long getWeightAge() {
    return weightAge;
  }

  public void setWeightAge(long weightAge) {
    this.weightAge = weightAge;
  }

  public long getWeightFairshare() {
    return weightFairshare;
  }

  public void setWeightFairshare(long weightFairshare) {
    this.weightFairshare = weightFairshare;
  }

  public long getWeightJobSize() {
    return weightJobSize;
  }

  public void setWeightJobSize(long weightJobSize) {
    this.weightJobSize = weightJobSize;
  }

  public long getWeightPartition() {
    return weightPartition;
  }

  public void setWeightPartition(long weightPartition) {
    this.weightPartition = weightPartition;
  }

  public long getWeightQos() {
    return weightQos;
  }

  public void setWeightQos(long weightQos) {
    this.weightQos = weightQos;
  }

  public Duration getMaxAge() {
    return maxAge;
  }

  public void setMaxAge(Duration maxAge) {
    this.maxAge = maxAge;
  }

  /** Slurm's PriorityFlags=ACCRUE_ALWAYS: age counts from submission, held or waiting on a dependency too. */
  public boolean isAccrueAlways() {
    return accrueAlways;
  }

  public void setAccrueAlways(boolean accrueAlways) {
    this.accrueAlways = accrueAlways;
  }

  /** Slurm's PriorityFlags=SMALL_RELATIVE_TO_TIME: the job size factor is the size over the time limit in minutes. */
  public boolean isSmallRelativeToTime() {
    return smallRelativeToTime;
  }

  public void setSmallRelativeToTime(boolean smallRelativeToTime) {
    this.smallRelativeToTime = smallRelativeToTime;
  }

  /** Slurm's PriorityFavorSmall=YES: the job size factor is 1 minus the size (over the time limit, with the flag). */
  public boolean isFavorSmall() {
    return favorSmall;
  }

  public void setFavorSmall(boolean favorSmall) {
    this.favorSmall = favorSmall;
  }

  /** {@code fair-tree} (Slurm's default) or {@code classic} (Slurm's PriorityFlags=NO_FAIR_TREE). */
  public String getFairshare() {
    return fairshare;
  }

  public void setFairshare(String fairshare) {
    this.fairshare = fairshare;
  }

  /** Slurm's PriorityCalcPeriod: how often running jobs are charged and usage decayed. */
  public Duration getCalcPeriod() {
    return calcPeriod;
  }

  public void setCalcPeriod(Duration calcPeriod) {
    this.calcPeriod = calcPeriod;
  }

  /** Slurm's PriorityDecayHalfLife; 0: usage never decays. */
  public Duration getDecayHalfLife() {
    return decayHalfLife;
  }

  public void setDecayHalfLife(Duration decayHalfLife) {
    this.decayHalfLife = decayHalfLife;
  }
}
