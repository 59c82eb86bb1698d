package io.squall.core.model;

import java.util.List;
import java.util.Set;

/**
 * A named pool of nodes with its limits and priority settings.
 *
 * @param maxTimeMinutes MaxTime; null for UNLIMITED
 * @param defaultTimeMinutes DefaultTime for jobs without --time; null means MaxTime
 * @param maxNodes MaxNodes per job; null for UNLIMITED
 * @param priorityJobFactor the partition factor of job priority
 * @param priorityTier jobs in a higher tier may preempt jobs in lower tiers
 * @param allowAccounts empty means every account
 * @param allowQos empty means every QOS
 * @param preemptMode what happens to this partition's jobs when preempted
 * @param graceTimeSeconds how long a victim has between its signal and its end
 * @param billingWeights TRESBillingWeights: what a second of its jobs' allocations adds to their
 *     fair-share usage
 */
public record Partition(String name, List<String> nodes, boolean isDefault, Integer maxTimeMinutes,
    Integer defaultTimeMinutes, Integer maxNodes, int priorityJobFactor, int priorityTier,
    Set<String> allowAccounts, Set<String> allowQos, PreemptMode preemptMode, int graceTimeSeconds,
    TresBillingWeights billingWeights) {
  public Partition {
    nodes = List.copyOf(nodes);
    allowAccounts = Set.copyOf(allowAccounts);
    allowQos = Set.copyOf(allowQos);
    java.util.Objects.requireNonNull(billingWeights, "billingWeights");
  }

  /**
   * A partition with the common defaults: not default, no limits, factor 1, tier 1, no preemption,
   * billed per GPU ({@link TresBillingWeights#GPUS}).
   */
  public static Partition of(String name, List<String> nodes) {
    return new Partition(name, nodes, false, null, null, null, 1, 1, Set.of(), Set.of(), PreemptMode.OFF, 0,
        TresBillingWeights.GPUS);
  }

  public Partition asDefault() {
    return new Partition(name, nodes, true, maxTimeMinutes, defaultTimeMinutes, maxNodes, priorityJobFactor,
        priorityTier, allowAccounts, allowQos, preemptMode, graceTimeSeconds, billingWeights);
  }

  public Partition withLimits(Integer maxTime, Integer defaultTime, Integer maxNodesPerJob) {
    return new Partition(name, nodes, isDefault, maxTime, defaultTime, maxNodesPerJob, priorityJobFactor,
        priorityTier, allowAccounts, allowQos, preemptMode, graceTimeSeconds, billingWeights);
  }

  public Partition withPriority(int jobFactor, int tier, PreemptMode mode, int graceSeconds) {
    return new Partition(name, nodes, isDefault, maxTimeMinutes, defaultTimeMinutes, maxNodes, jobFactor, tier,
        allowAccounts, allowQos, mode, graceSeconds, billingWeights);
  }

  public Partition withAllowed(Set<String> accounts, Set<String> qos) {
    return new Partition(name, nodes, isDefault, maxTimeMinutes, defaultTimeMinutes, maxNodes, priorityJobFactor,
        priorityTier, accounts, qos, preemptMode, graceTimeSeconds, billingWeights);
  }

  public Partition withBillingWeights(TresBillingWeights weights) {
    return new Partition(name, nodes, isDefault, maxTimeMinutes, defaultTimeMinutes, maxNodes, priorityJobFactor,
        priorityTier, allowAccounts, allowQos, preemptMode, graceTimeSeconds, weights);
  }

  /**
   * A job's time limit here, in minutes: what it asked for, else the partition's DefaultTime, else
   * its MaxTime, else {@link io.squall.core.sbatch.TimeLimit#UNLIMITED}.
   */
  public int timeLimitMinutes(Integer asked) {
    if (asked != null) {
      return asked;
    }
    if (defaultTimeMinutes != null) {
      return defaultTimeMinutes;
    }
    return maxTimeMinutes != null ? maxTimeMinutes : io.squall.core.sbatch.TimeLimit.UNLIMITED;
  }
}
