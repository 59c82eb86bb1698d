package io.squall.core.model;

import io.squall.core.money.BudgetLimits;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything one scheduling cycle reads. Lists are iterated in order; maps are looked up only,
 * so the same snapshot always gives the same plan.
 *
 * @param jobs pending, running and recently finished jobs (finished ones answer dependencies)
 * @param usage decayed past GPU usage per user association, for fair-share and QOS limits
 * @param budgets what the accounts' budgets still allow
 * @param reservations the advanced reservations that have not been purged yet
 * @param completing pending jobs whose last run may still go on somewhere (Slurm's COMPLETING: a
 *     requeued job whose nodes have not all confirmed its processes gone); the cycle does not
 *     consider them, as Slurm's scheduler skips a completing job, so they neither start nor hold
 *     back others
 */
public record ClusterSnapshot(List<Node> nodes, List<Partition> partitions, Map<String, Qos> qos,
    List<Account> accounts, List<UserAssociation> users, List<Job> jobs, UsageLedger usage, BudgetLimits budgets,
    List<Reservation> reservations, Set<JobKey> completing) {
  /** With no job completing. */
  public ClusterSnapshot(List<Node> nodes, List<Partition> partitions, Map<String, Qos> qos, List<Account> accounts,
      List<UserAssociation> users, List<Job> jobs, UsageLedger usage, BudgetLimits budgets,
      List<Reservation> reservations) {
    this(nodes, partitions, qos, accounts, users, jobs, usage, budgets, reservations, Set.of());
  }

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
    completing = Set.copyOf(completing);
  }

  public ClusterSnapshot withJobs(List<Job> newJobs) {
    return new ClusterSnapshot(nodes, partitions, qos, accounts, users, newJobs, usage, budgets, reservations, completing);
  }

  public ClusterSnapshot withUsage(UsageLedger newUsage) {
    return new ClusterSnapshot(nodes, partitions, qos, accounts, users, jobs, newUsage, budgets, reservations, completing);
  }

  public ClusterSnapshot withBudgets(BudgetLimits newBudgets) {
    return new ClusterSnapshot(nodes, partitions, qos, accounts, users, jobs, usage, newBudgets, reservations, completing);
  }

  public ClusterSnapshot withReservations(List<Reservation> newReservations) {
    return new ClusterSnapshot(nodes, partitions, qos, accounts, users, jobs, usage, budgets, newReservations, completing);
  }

  public ClusterSnapshot withCompleting(Set<JobKey> newCompleting) {
    return new ClusterSnapshot(nodes, partitions, qos, accounts, users, jobs, usage, budgets, reservations, newCompleting);
  }
}
