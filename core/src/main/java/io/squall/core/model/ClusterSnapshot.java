package io.squall.core.model;

import io.squall.core.money.BudgetLimits;
import java.util.List;
import java.util.Map;

/**
 * Everything one scheduling cycle reads. Lists are iterated in order; maps are looked up only,
 * so the same snapshot always gives the same plan.
 *
 * @param jobs pending, running and recently finished jobs (finished ones answer dependencies)
 * @param usage decayed past GPU usage per user association, for fair-share and QOS limits
 * @param budgets what the accounts' budgets still allow
 */
public record ClusterSnapshot(List<Node> nodes, List<Partition> partitions, Map<String, Qos> qos,
    List<Account> accounts, List<UserAssociation> users, List<Job> jobs, UsageLedger usage, BudgetLimits budgets) {
  /** With no budgets. */
  public ClusterSnapshot(List<Node> nodes, List<Partition> partitions, Map<String, Qos> qos, List<Account> accounts,
      List<UserAssociation> users, List<Job> jobs, UsageLedger usage) {
    this(nodes, partitions, qos, accounts, users, jobs, usage, BudgetLimits.NONE);
  }

  public ClusterSnapshot {
    java.util.Objects.requireNonNull(budgets, "budgets");
    nodes = List.copyOf(nodes);
    partitions = List.copyOf(partitions);
    qos = Map.copyOf(qos);
    accounts = List.copyOf(accounts);
    users = List.copyOf(users);
    jobs = List.copyOf(jobs);
  }

  public ClusterSnapshot withJobs(List<Job> newJobs) {
    return new ClusterSnapshot(nodes, partitions, qos, accounts, users, newJobs, usage, budgets);
  }

  public ClusterSnapshot withUsage(UsageLedger newUsage) {
    return new ClusterSnapshot(nodes, partitions, qos, accounts, users, jobs, newUsage, budgets);
  }

  public ClusterSnapshot withBudgets(BudgetLimits newBudgets) {
    return new ClusterSnapshot(nodes, partitions, qos, accounts, users, jobs, usage, newBudgets);
  }
}
