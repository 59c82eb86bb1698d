package io.squall.api.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.squall.providers.local.LocalProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The local provider's pretend cloud ({@code squall.local.*}): the zones it sells nodes in, zones
 * that always report no capacity, and a boot delay, so elastic behaviour and capacity fallback
 * can be seen on a laptop; and pretend prices, so that its money can be too.
 */
@ConfigurationProperties("squall.local")
public class LocalProviderConfig {
  private List<String> zones = new ArrayList<>(List.of("local"));
  private List<String> noCapacityZones = new ArrayList<>();
  private Duration bootDelay = Duration.ZERO;
  private double launchFailureRate;
  private long failureSeed = 1;
  private double onDemandPrice;
  private Double spotPrice;

  public List<String> getZones() {
    return zones;
  }

  public void setZones(List<String> zones) {
    this.zones = zones;
  }

  public List<String> getNoCapacityZones() {
    return noCapacityZones;
  }

  public void setNoCapacityZones(List<String> noCapacityZones) {
    this.noCapacityZones = noCapacityZones;
  }

  public Duration getBootDelay() {
    return bootDelay;
  }

  public void setBootDelay(Duration bootDelay) {
    this.bootDelay = bootDelay;
  }

  /** The share of launches that fail with a transient error (chaos tests); 0 by default. */
  public double getLaunchFailureRate() {
    return launchFailureRate;
  }

  public void setLaunchFailureRate(double launchFailureRate) {
    this.launchFailureRate = launchFailureRate;
  }

  public long getFailureSeed() {
    return failureSeed;
  }

  public void setFailureSeed(long failureSeed) {
    this.failureSeed = failureSeed;
  }

  /** US dollars per node-hour on demand ({@code on-demand-price}); 0 by default. */
  public double getOnDemandPrice() {
    return onDemandPrice;
  }

  public void setOnDemandPrice(double onDemandPrice) {
    this.onDemandPrice = onDemandPrice;
  }

  /** US dollars per node-hour as spot ({@code spot-price}); unset: the local provider sells no spot. */
  public Double getSpotPrice() {
    return spotPrice;
  }

  public void setSpotPrice(Double spotPrice) {
    this.spotPrice = spotPrice;
  }

  /** The provider's settings, its agents started with {@code jvmArgs}. */
  public LocalProvider.Settings settings(List<String> jvmArgs) {
    return new LocalProvider.Settings(zones, Set.copyOf(noCapacityZones), bootDelay, jvmArgs, launchFailureRate,
        failureSeed, onDemandPrice, spotPrice);
  }
}
