package io.squall.api.config;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;

/**
 * A quality of service ({@code squall.qos.NAME.*}), reached with Slurm's own {@code --qos}: its
 * priority, what its jobs' nodes may be bought as, and its price caps. The default QOS
 * ({@code squall.default-qos}) exists whether configured or not.
 */
@EachProperty("squall.qos")
public class QosConfig {
  private final String name;
  private int priority;
  private String capacity;
  private Double maxSpotUsdPerGpuHour;
  private Double maxOnDemandUsdPerGpuHour;

  public QosConfig(@Parameter String name) {
    this.name = name;
  }

  public String getName() {
    return name;
  }

  /** Slurm's QOS priority, weighted by {@code squall.priority.weight-qos}. */
  public int getPriority() {
    return priority;
  }

  public void setPriority(int priority) {
    this.priority = priority;
  }

  /** {@code spot-only}, {@code spot-then-on-demand}, {@code on-demand}, {@code deadline}; none: the partition's. */
  public String getCapacity() {
    return capacity;
  }

  public void setCapacity(String capacity) {
    this.capacity = capacity;
  }

  public Double getMaxSpotUsdPerGpuHour() {
    return maxSpotUsdPerGpuHour;
  }

  public void setMaxSpotUsdPerGpuHour(Double maxSpotUsdPerGpuHour) {
    this.maxSpotUsdPerGpuHour = maxSpotUsdPerGpuHour;
  }

  public Double getMaxOnDemandUsdPerGpuHour() {
    return maxOnDemandUsdPerGpuHour;
  }

  public void setMaxOnDemandUsdPerGpuHour(Double maxOnDemandUsdPerGpuHour) {
    this.maxOnDemandUsdPerGpuHour = maxOnDemandUsdPerGpuHour;
  }
}
