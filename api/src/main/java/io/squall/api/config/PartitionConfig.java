package io.squall.api.config;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One partition and the template of its nodes ({@code squall.partitions.NAME.*}). Its nodes are
 * the hostlist {@code nodes}, split in order into {@code placement-groups} equal groups. An
 * {@code elastic} partition's nodes start powered down (CLOUD) and are launched through the
 * provider when jobs need them, as its capacity settings say (Slurm's power saving).
 */
@EachProperty("squall.partitions")
public class PartitionConfig {
  private final String name;
  private boolean isDefault;
  private String nodes;
  private int gpus = 8;
  private String gpuType = "h100";
  private int cpus = 32;
  private long memoryMb = 262144;
  private List<String> features = new ArrayList<>();
  private int placementGroups = 1;
  private Integer maxTimeMinutes;
  private Integer defaultTimeMinutes;
  private Integer maxNodes;
  private int priorityTier = 1;
  /** Slurm's PreemptMode for this partition's jobs: off (default, as in Slurm), requeue or cancel. */
  private String preemptMode = "off";
  /** Slurm's GraceTime: how long a preempted job has, from its checkpoint signal, to checkpoint. */
  private Duration graceTime = Duration.ZERO;
  private int priorityJobFactor = 1;
  /** Slurm's TRESBillingWeights; unset: one unit per GPU (TresBillingWeights.GPUS), not Slurm's CPU=1. */
  private String tresBillingWeights;
  private boolean elastic;
  private List<String> instanceTypes = new ArrayList<>();
  private List<String> zones = new ArrayList<>();
  private String spot = "spot-then-on-demand";
  private Duration onDemandAfter = Duration.ofMinutes(5);
  private Double maxSpotPrice;
  private Double maxSpotUsdPerGpuHour;
  private Double maxOnDemandUsdPerGpuHour;
  private java.time.Duration changeoverTime = java.time.Duration.ofMinutes(5);
  private Duration suspendTime = Duration.ofMinutes(5);
  private Duration resumeTimeout = Duration.ofMinutes(10);
  private int minNodes;
  private Duration unavailableFor = Duration.ofMinutes(5);
  private Duration batchWindow = Duration.ofSeconds(1);
  private int maxLaunchAttempts = 8;
  private Duration retryBackoff = Duration.ofSeconds(10);
  private String checkpointSignal = "USR1";
  private String checkpointDir;
  private String checkpointPattern;
  private int maxRestarts = 5;
  private Duration restartBackoff = Duration.ofSeconds(30);
  private Duration interruptionMargin = Duration.ofSeconds(10);
  private Duration checkpointWait = Duration.ofSeconds(60);

  public PartitionConfig(@Parameter String name) {
    this.name = name;
  }

  public String getName() {
    return name;
  }

  public boolean isDefault() {
    return isDefault;
  }

  public void setDefault(boolean isDefault) {
    this.isDefault = isDefault;
  }

  /** A Slurm hostlist: {@code node-[1-4]}. */
  public String getNodes() {
    return nodes;
  }

  public void setNodes(String nodes) {
    this.nodes = nodes;
  }

  public int getGpus() {
    return gpus;
  }

  public void setGpus(int gpus) {
    this.gpus = gpus;
  }

  public String getGpuType() {
    return gpuType;
  }

  public void setGpuType(String gpuType) {
    this.gpuType = gpuType;
  }

  public int getCpus() {
    return cpus;
  }

  public void setCpus(int cpus) {
    this.cpus = cpus;
  }

  public long getMemoryMb() {
    return memoryMb;
  }

  public void setMemoryMb(long memoryMb) {
    this.memoryMb = memoryMb;
  }

  public List<String> getFeatures() {
    return features;
  }

  public void setFeatures(List<String> features) {
    this.features = features;
  }

  public int getPlacementGroups() {
    return placementGroups;
  }

  public void setPlacementGroups(int placementGroups) {
    this.placementGroups = placementGroups;
  }

  public Integer getMaxTimeMinutes() {
    return maxTimeMinutes;
  }

  public void setMaxTimeMinutes(Integer maxTimeMinutes) {
    this.maxTimeMinutes = maxTimeMinutes;
  }

  public Integer getDefaultTimeMinutes() {
    return defaultTimeMinutes;
  }

  public void setDefaultTimeMinutes(Integer defaultTimeMinutes) {
    this.defaultTimeMinutes = defaultTimeMinutes;
  }

  public Integer getMaxNodes() {
    return maxNodes;
  }

  public void setMaxNodes(Integer maxNodes) {
    this.maxNodes = maxNodes;
  }

  public String getPreemptMode() {
    return preemptMode;
  }

  public void setPreemptMode(String preemptMode) {
    this.preemptMode = preemptMode;
  }

  public Duration getGraceTime() {
    return graceTime;
  }

  public void setGraceTime(Duration graceTime) {
    this.graceTime = graceTime;
  }

  public int getPriorityTier() {
    return priorityTier;
  }

  public void setPriorityTier(int priorityTier) {
    this.priorityTier = priorityTier;
  }

  public int getPriorityJobFactor() {
    return priorityJobFactor;
  }

  public void setPriorityJobFactor(int priorityJobFactor) {
    this.priorityJobFactor = priorityJobFactor;
  }
  public String getTresBillingWeights() {
    return tresBillingWeights;
  }

  public void setTresBillingWeights(String tresBillingWeights) {
    this.tresBillingWeights = tresBillingWeights;
  }

  public boolean isElastic() {
    return elastic;
  }

  public void setElastic(boolean elastic) {
    this.elastic = elastic;
  }

  public List<String> getInstanceTypes() {
    return instanceTypes;
  }

  public void setInstanceTypes(List<String> instanceTypes) {
    this.instanceTypes = instanceTypes;
  }

  public List<String> getZones() {
    return zones;
  }

  public void setZones(List<String> zones) {
    this.zones = zones;
  }

  public String getSpot() {
    return spot;
  }

  public void setSpot(String spot) {
    this.spot = spot;
  }

  public Duration getOnDemandAfter() {
    return onDemandAfter;
  }

  public void setOnDemandAfter(Duration onDemandAfter) {
    this.onDemandAfter = onDemandAfter;
  }

  public Double getMaxSpotPrice() {
    return maxSpotPrice;
  }

  public void setMaxSpotPrice(Double maxSpotPrice) {
    this.maxSpotPrice = maxSpotPrice;
  }

  public Duration getSuspendTime() {
    return suspendTime;
  }

  public void setSuspendTime(Duration suspendTime) {
    this.suspendTime = suspendTime;
  }

  public Duration getResumeTimeout() {
    return resumeTimeout;
  }

  public void setResumeTimeout(Duration resumeTimeout) {
    this.resumeTimeout = resumeTimeout;
  }

  public int getMinNodes() {
    return minNodes;
  }

  public void setMinNodes(int minNodes) {
    this.minNodes = minNodes;
  }

  public Duration getUnavailableFor() {
    return unavailableFor;
  }

  public void setUnavailableFor(Duration unavailableFor) {
    this.unavailableFor = unavailableFor;
  }

  public Duration getBatchWindow() {
    return batchWindow;
  }

  public void setBatchWindow(Duration batchWindow) {
    this.batchWindow = batchWindow;
  }

  public int getMaxLaunchAttempts() {
    return maxLaunchAttempts;
  }

  public void setMaxLaunchAttempts(int maxLaunchAttempts) {
    this.maxLaunchAttempts = maxLaunchAttempts;
  }

  public Duration getRetryBackoff() {
    return retryBackoff;
  }

  public void setRetryBackoff(Duration retryBackoff) {
    this.retryBackoff = retryBackoff;
  }

  public String getCheckpointSignal() {
    return checkpointSignal;
  }

  public void setCheckpointSignal(String checkpointSignal) {
    this.checkpointSignal = checkpointSignal;
  }

  public String getCheckpointDir() {
    return checkpointDir;
  }

  public void setCheckpointDir(String checkpointDir) {
    this.checkpointDir = checkpointDir;
  }

  public String getCheckpointPattern() {
    return checkpointPattern;
  }

  public void setCheckpointPattern(String checkpointPattern) {
    this.checkpointPattern = checkpointPattern;
  }

  public int getMaxRestarts() {
    return maxRestarts;
  }

  public void setMaxRestarts(int maxRestarts) {
    this.maxRestarts = maxRestarts;
  }

  public Duration getRestartBackoff() {
    return restartBackoff;
  }

  public void setRestartBackoff(Duration restartBackoff) {
    this.restartBackoff = restartBackoff;
  }

  public Duration getInterruptionMargin() {
    return interruptionMargin;
  }

  public void setInterruptionMargin(Duration interruptionMargin) {
    this.interruptionMargin = interruptionMargin;
  }

  public Duration getCheckpointWait() {
    return checkpointWait;
  }

  public void setCheckpointWait(Duration checkpointWait) {
    this.checkpointWait = checkpointWait;
  }

  /** The most a spot GPU-hour may cost, in US dollars; none by default. */
  public Double getMaxSpotUsdPerGpuHour() {
    return maxSpotUsdPerGpuHour;
  }

  public void setMaxSpotUsdPerGpuHour(Double maxSpotUsdPerGpuHour) {
    this.maxSpotUsdPerGpuHour = maxSpotUsdPerGpuHour;
  }

  /** The most an on-demand GPU-hour may cost, in US dollars; none by default. */
  public Double getMaxOnDemandUsdPerGpuHour() {
    return maxOnDemandUsdPerGpuHour;
  }

  public void setMaxOnDemandUsdPerGpuHour(Double maxOnDemandUsdPerGpuHour) {
    this.maxOnDemandUsdPerGpuHour = maxOnDemandUsdPerGpuHour;
  }

  /** How long a job takes from losing its nodes to running on new ones (boot plus restore): the deadline rule keeps twice this in hand. */
  public java.time.Duration getChangeoverTime() {
    return changeoverTime;
  }

  public void setChangeoverTime(java.time.Duration changeoverTime) {
    this.changeoverTime = changeoverTime;
  }
}
