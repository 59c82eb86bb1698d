package io.squall.api.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.squall.core.priority.PriorityWeights;
import java.time.Duration;

/**
 * Slurm's PriorityWeight* settings, PriorityMaxAge and PriorityFlags=ACCRUE_ALWAYS
 * ({@code squall.priority.*}); unset values keep {@link PriorityWeights#defaults()} and Slurm's
 * default of aging jobs only while they are eligible.
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

  public PriorityWeights weights() {
    return new PriorityWeights(weightAge, weightFairshare, weightJobSize, weightPartition, weightQos, maxAge);
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
}
