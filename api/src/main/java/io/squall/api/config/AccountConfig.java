package io.squall.api.config;

import io.micronaut.context.annotation.EachProperty;
import io.micronaut.context.annotation.Parameter;
import java.util.ArrayList;
import java.util.List;

/**
 * A fair-share account ({@code squall.accounts.NAME.*}), its association limits as sacctmgr sets
 * them on an account, and the budget finance set for it: US dollars per calendar period, a
 * sub-account's spend rolling up into it.
 */
@EachProperty("squall.accounts")
public class AccountConfig {
  private final String name;
  private String parent;
  private int shares = 1;
  private Double softLimitUsd;
  private Double hardLimitUsd;
  private String budgetPeriod = "month";
  private boolean stopAtHardLimit;
  private List<Integer> budgetAlerts = new ArrayList<>(List.of(50, 80, 100));
  private String currency = "USD";
  private Double maxSpotUsdPerGpuHour;
  private Double maxOnDemandUsdPerGpuHour;
  private String grpTres;
  private String grpTresMins;
  private Integer maxJobs;
  private Integer maxSubmitJobs;

  public AccountConfig(@Parameter String name) {
    this.name = name;
  }

  public String getName() {
    return name;
  }

  /** The parent account; none for a child of root. */
  public String getParent() {
    return parent;
  }

  public void setParent(String parent) {
    this.parent = parent;
  }

  public int getShares() {
    return shares;
  }

  public void setShares(int shares) {
    this.shares = shares;
  }

  /** Past it, the account's jobs run on spot only ({@code soft-limit-usd}); unset for none. */
  public Double getSoftLimitUsd() {
    return softLimitUsd;
  }

  public void setSoftLimitUsd(Double softLimitUsd) {
    this.softLimitUsd = softLimitUsd;
  }

  /** Past it, no new job of the account starts ({@code hard-limit-usd}); unset for none. */
  public Double getHardLimitUsd() {
    return hardLimitUsd;
  }

  public void setHardLimitUsd(Double hardLimitUsd) {
    this.hardLimitUsd = hardLimitUsd;
  }

  /** {@code day}, {@code week} or {@code month} (the default). */
  public String getBudgetPeriod() {
    return budgetPeriod;
  }

  public void setBudgetPeriod(String budgetPeriod) {
    this.budgetPeriod = budgetPeriod;
  }

  /** Whether running jobs are stopped too once the hard limit is passed. */
  public boolean isStopAtHardLimit() {
    return stopAtHardLimit;
  }

  public void setStopAtHardLimit(boolean stopAtHardLimit) {
    this.stopAtHardLimit = stopAtHardLimit;
  }

  /** Percentages of the budget at which an alert is raised (default 50, 80, 100). */
  public List<Integer> getBudgetAlerts() {
    return budgetAlerts;
  }

  public void setBudgetAlerts(List<Integer> budgetAlerts) {
    this.budgetAlerts = budgetAlerts;
  }

  /** Only USD: prices and budgets are US dollars. */
  public String getCurrency() {
    return currency;
  }

  public void setCurrency(String currency) {
    this.currency = currency;
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

  /** GrpTRES for the account and its sub-accounts together ({@code gres/gpu=16,cpu=64,mem=512G,node=4}). */
  public String getGrpTres() {
    return grpTres;
  }

  public void setGrpTres(String grpTres) {
    this.grpTres = grpTres;
  }

  /** GrpTRESMins for the account and its sub-accounts: only {@code gres/gpu=MINUTES} is counted. */
  public String getGrpTresMins() {
    return grpTresMins;
  }

  public void setGrpTresMins(String grpTresMins) {
    this.grpTresMins = grpTresMins;
  }

  /** MaxJobs: running jobs per user of the account (and of sub-accounts that set none). */
  public Integer getMaxJobs() {
    return maxJobs;
  }

  public void setMaxJobs(Integer maxJobs) {
    this.maxJobs = maxJobs;
  }

  /** MaxSubmitJobs: pending and running jobs per user of the account; past it a submission is refused. */
  public Integer getMaxSubmitJobs() {
    return maxSubmitJobs;
  }

  public void setMaxSubmitJobs(Integer maxSubmitJobs) {
    this.maxSubmitJobs = maxSubmitJobs;
  }
}
