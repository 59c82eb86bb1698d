package io.squall.api.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.squall.core.sbatch.ArraySpec;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;

/** The controller's settings ({@code squall.*} in application.yml, or SQUALL_* environment variables). */
@ConfigurationProperties("squall")
public class SquallConfig {
  private String clusterName = "squall";
  private Path dataDir = Path.of("squall-data");
  private String zone = ZoneId.systemDefault().getId();
  private Duration schedulerInterval = Duration.ofSeconds(1);
  private Duration killWait = Duration.ofSeconds(30);
  private String agentToken = "change-me-agent-token";
  private String controllerUrl;
  private Duration heartbeatInterval = Duration.ofSeconds(5);
  private Duration nodeTimeout = Duration.ofSeconds(30);
  private Duration reconcileInterval = Duration.ofSeconds(30);
  /**
   * {@code auto}: the service's periodic work (scheduler, fleet, interruptions) runs on the wall
   * clock. {@code manual}: nothing runs by itself; the clock is a manual one and tests call
   * {@code Ticker.tick()} (service tests that drive time instead of sleeping).
   */
  private String ticks = "auto";
  private String provider = "local";
  private String defaultQos = "normal";
  private int maxArraySize = ArraySpec.DEFAULT_MAX_ARRAY_SIZE;
  private String budgetWebhook;
  private Duration budgetInterval = Duration.ofSeconds(10);
  /** Slurm's MinJobAge default (300 s). */
  private Duration minJobAge = Duration.ofSeconds(300);

  public String getClusterName() {
    return clusterName;
  }

  public void setClusterName(String clusterName) {
    this.clusterName = clusterName;
  }

  /** Where the H2 database, gathered job output and local nodes' work directories live. */
  public Path getDataDir() {
    return dataDir;
  }

  public void setDataDir(Path dataDir) {
    this.dataDir = dataDir;
  }

  /** The zone sbatch times (--begin=16:00) are read in. */
  public ZoneId zoneId() {
    return ZoneId.of(zone);
  }

  public String getZone() {
    return zone;
  }

  public void setZone(String zone) {
    this.zone = zone;
  }

  /** The longest a submitted job waits for a scheduling cycle; submissions also wake it. */
  public Duration getSchedulerInterval() {
    return schedulerInterval;
  }

  public void setSchedulerInterval(Duration schedulerInterval) {
    this.schedulerInterval = schedulerInterval;
  }

  /** Slurm's KillWait: between SIGTERM and SIGKILL when a job is cancelled or times out. */
  public Duration getKillWait() {
    return killWait;
  }

  public void setKillWait(Duration killWait) {
    this.killWait = killWait;
  }

  /** The bearer token node agents present; never give it to users. */
  public String getAgentToken() {
    return agentToken;
  }

  public void setAgentToken(String agentToken) {
    this.agentToken = agentToken;
  }

  /**
   * The address launched nodes reach the controller at ({@code http://10.0.1.5:6820}), which the
   * controller cannot know behind NAT or a load balancer; null: its own loopback address, right
   * only for nodes on this machine (the local provider).
   */
  public String getControllerUrl() {
    return controllerUrl;
  }

  public void setControllerUrl(String controllerUrl) {
    this.controllerUrl = controllerUrl;
  }

  public Duration getHeartbeatInterval() {
    return heartbeatInterval;
  }

  public void setHeartbeatInterval(Duration heartbeatInterval) {
    this.heartbeatInterval = heartbeatInterval;
  }

  /** A node whose agent has been silent this long goes DOWN and its jobs are requeued or fail. */
  public Duration getNodeTimeout() {
    return nodeTimeout;
  }

  public void setNodeTimeout(Duration nodeTimeout) {
    this.nodeTimeout = nodeTimeout;
  }

  /** {@code local} starts the partitions' nodes as agent processes here; {@code none} waits for agents started elsewhere. */
  public String getProvider() {
    return provider;
  }

  public void setProvider(String provider) {
    this.provider = provider;
  }

  /** Slurm's MaxArraySize: array task ids must stay below it (1001 allows 0 to 1000, Slurm's default). */
  public int getMaxArraySize() {
    return maxArraySize;
  }

  public void setMaxArraySize(int maxArraySize) {
    this.maxArraySize = maxArraySize;
  }

  public String getDefaultQos() {
    return defaultQos;
  }

  public void setDefaultQos(String defaultQos) {
    this.defaultQos = defaultQos;
  }

  /** {@code auto} (the default), or {@code manual}: nothing periodic runs by itself, tests tick by hand. */
  public String getTicks() {
    return ticks;
  }

  public void setTicks(String ticks) {
    this.ticks = ticks;
  }

  /**
   * Whether time is driven by hand (tests).
   *
   * @throws IllegalStateException for a value that is neither {@code auto} nor {@code manual}:
   *     read at start-up, so a misspelt setting stops the controller rather than passing for auto
   */
  public boolean manualTicks() {
    return switch (ticks) {
      case "auto" -> false;
      case "manual" -> true;
      default -> throw new IllegalStateException("squall.ticks: auto or manual, not '" + ticks + "'");
    };
  }

  /** How often the elastic fleet compares the provider's instances with its records (machines gone without notice). */
  public Duration getReconcileInterval() {
    return reconcileInterval;
  }

  public void setReconcileInterval(Duration reconcileInterval) {
    this.reconcileInterval = reconcileInterval;
  }

  /** Where budget alerts are POSTed as JSON ({@code budget-webhook}); unset for none. */
  public String getBudgetWebhook() {
    return budgetWebhook;
  }

  public void setBudgetWebhook(String budgetWebhook) {
    this.budgetWebhook = budgetWebhook;
  }

  /** How often spend is added up again for budgets ({@code budget-interval}, default 10 s). */
  public Duration getBudgetInterval() {
    return budgetInterval;
  }

  public void setBudgetInterval(Duration budgetInterval) {
    this.budgetInterval = budgetInterval;
  }

  /**
   * Slurm's MinJobAge ({@code min-job-age}, default 300 s): how long a finished job stays in the
   * controller's memory (squeue, scancel, dependencies) before only the database has it; 0 keeps
   * every finished job in memory, as Slurm's MinJobAge=0 does.
   */
  public Duration getMinJobAge() {
    return minJobAge;
  }

  public void setMinJobAge(Duration minJobAge) {
    if (minJobAge.isNegative()) {
      throw new IllegalArgumentException("squall.min-job-age must not be negative, not " + minJobAge);
    }
    this.minJobAge = minJobAge;
  }
}
