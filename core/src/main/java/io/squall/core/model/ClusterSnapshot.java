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
 * @param reservations the advanced reservations that have not been purged yet
 */
public record ClusterSnapshot(List<Node> nodes, List<Partition> partitions, Map<String, Qos> qos,
    List<Account> accounts, List<UserAssociation> users, List<Job> jobs, UsageLedger usage, BudgetLimits budgets,
    List<Reservation> reservations) {
  /** With no advanced reservations. */
  public ClusterSnapshot(List<Node> nodes, List<Partition> partitions, Map<String, Qos> qos, List<Account> accounts,
      List<UserAssociation> users, List<Job> jobs, UsageLedger usage, BudgetLimits budgets) {
    this(nodes, partitions, qos, accounts, users, jobs, usage, budgets, List.of());
  }

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
    reservations = List.copyOf(reservations);
  }

  public ClusterSnapshot withJobs(List<Job> newJobs) {
    return new ClusterSnapshot(nodes, partitions, qos, accounts, users, newJobs, usage, budgets, reservations);
  }

  public ClusterSnapshot withUsage(UsageLedger newUsage) {
    return new ClusterSnapshot(nodes, partitions, qos, accounts, users, jobs, newUsage, budgets, reservations);
  }

  public ClusterSnapshot withBudgets(BudgetLimits newBudgets) {
    return new ClusterSnapshot(nodes, partitions, qos, accounts, users, jobs, usage, newBudgets, reservations);
  }

  public ClusterSnapshot withReservations(List<Reservation> newReservations) {
    return new ClusterSnapshot(nodes, partitions, qos, accounts, users, jobs, usage, budgets, newReservations);
  }
}
