package io.squall.api.config;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;
import java.util.ArrayList;
import java.util.List;

/**
 * A quality of service ({@code squall.qos.NAME.*}), reached with Slurm's own {@code --qos}: its
 * priority, whom it may preempt, its limits (as sacctmgr sets them on a QOS), what its jobs'
 * nodes may be bought as, and its price caps. The default QOS ({@code squall.default-qos}) exists
 * whether configured or not.
 */
@EachProperty("squall.qos")
public class QosConfig {
  private final String name;
  private int priority;
  private String capacity;
  private Double maxSpotUsdPerGpuHour;
  private Double maxOnDemandUsdPerGpuHour;
  private List<String> preempt = new ArrayList<>();
  private String preemptMode = "requeue";
  private String grpTres;
  private String grpTresMins;
  private String maxTresPerUser;
  private Integer maxJobsPerUser;
  private Integer maxSubmitJobsPerUser;
  private double usageFactor = 1;

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

  /** QOS whose running jobs this QOS's jobs may preempt (Slurm's Preempt). */
  public List<String> getPreempt() {
    return preempt;
  }

  public void setPreempt(List<String> preempt) {
    this.preempt = preempt;
  }

  /** What happens to this QOS's jobs when another QOS preempts them: {@code requeue} (default), {@code cancel}, {@code off}. */
  public String getPreemptMode() {
    return preemptMode;
  }

  public void setPreemptMode(String preemptMode) {
    this.preemptMode = preemptMode;
  }

  /** GrpTRES, as sacctmgr takes it ({@code gres/gpu=16,cpu=64,mem=512G,node=4}); none by default. */
  public String getGrpTres() {
    return grpTres;
  }

  public void setGrpTres(String grpTres) {
    this.grpTres = grpTres;
  }

  /** GrpTRESMins: only {@code gres/gpu=MINUTES} is counted. */
  public String getGrpTresMins() {
    return grpTresMins;
  }

  public void setGrpTresMins(String grpTresMins) {
    this.grpTresMins = grpTresMins;
  }

  /** MaxTRESPerUser, in GrpTRES's form. */
  public String getMaxTresPerUser() {
    return maxTresPerUser;
  }

  public void setMaxTresPerUser(String maxTresPerUser) {
    this.maxTresPerUser = maxTresPerUser;
  }

  public Integer getMaxJobsPerUser() {
    return maxJobsPerUser;
  }

  public void setMaxJobsPerUser(Integer maxJobsPerUser) {
    this.maxJobsPerUser = maxJobsPerUser;
  }

  public Integer getMaxSubmitJobsPerUser() {
    return maxSubmitJobsPerUser;
  }

  public void setMaxSubmitJobsPerUser(Integer maxSubmitJobsPerUser) {
    this.maxSubmitJobsPerUser = maxSubmitJobsPerUser;
  }

  /** UsageFactor: what its jobs' usage is multiplied by for fair-share and GrpTRESMins (1; 0 is free). */
  public double getUsageFactor() {
    return usageFactor;
  }

  public void setUsageFactor(double usageFactor) {
    this.usageFactor = usageFactor;
  }
}
