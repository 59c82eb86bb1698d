package io.squall.core.schedule;

import io.squall.core.model.Account;
import io.squall.core.model.Job;
import io.squall.core.model.Node;
import io.squall.core.model.Partition;
import io.squall.core.model.Qos;
import io.squall.core.sbatch.JobRequest;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The check slurmctld makes when a job is submitted: a job that no partition it may use could hold,
 * even with every node of it empty, is refused at once instead of pending for ever. Limits a job
 * may wait out (a partition's MaxNodes or MaxTime, nodes that are busy or down) are the
 * scheduler's, not this check's. Node features are left to the scheduler too, so this refuses only
 * what no node's size could ever hold.
 */
public final class SubmitLimits {
  private SubmitLimits() {}

  /**
   * @param partitions the partitions the job may use (those it names, else the default)
   * @param nodes the configured node of a name, or null
   * @return null when some partition could hold the job, else Slurm's error with the reason
   */
  public static String refusal(JobRequest request, List<Partition> partitions, Function<String, Node> nodes) {
    if (!request.resources().otherGres().isEmpty()) {
      // Squall's nodes offer GPUs only, as a cluster whose gres.conf names nothing else.
      return "Invalid generic resource (gres) specification (--gres=" + String.join(",",
          request.resources().otherGres()) + ": this cluster's nodes offer only gpu)";
    }
    String refusal = "no partition to run in";
    for (Partition p : partitions) {
      List<Node> members = p.nodes().stream().map(nodes).filter(n -> n != null).toList();
      int largestGpus = members.stream().mapToInt(Node::gpus).max().orElse(0);
      GangShape shape = GangShape.of(request, p, largestGpus);
      if (shape.nodes() > members.size()) {
        refusal = "Node count specification invalid (partition " + p.name() + " has " + members.size()
            + " nodes; the job needs " + shape.nodes() + ")";
        continue;
      }
      long holders = members.stream().filter(n -> couldHold(n, shape)).count();
      if (holders >= shape.nodes()) {
        return null;
      }
      refusal = "Requested node configuration is not available (the job needs " + shape.nodes() + " node"
          + (shape.nodes() == 1 ? "" : "s") + " with " + shape.gpusPerNode() + " GPUs"
          + (shape.gpuType() == null ? "" : " of type " + shape.gpuType()) + ", " + shape.cpusPerNode() + " CPUs"
          + (shape.memoryMb() > 0 ? " and " + shape.memoryMb() + " MB" : "") + " each; partition " + p.name()
          + " has " + holders + " such node" + (holders == 1 ? "" : "s") + ")";
    }
    return refusal;
  }

  /** Slurm's ESLURM_ACCOUNTING_POLICY, as sbatch prints it for a submission over a submit limit. */
  public static final String ACCOUNTING_POLICY =
      "Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)";

  /**
   * The submit limits slurmctld checks before it queues a job: MaxSubmitJobs of the user's
   * association (set on the nearest account that sets it) and MaxSubmitJobsPerUser of the QOS, each
   * counting the user's pending and running jobs, an array's every task (resource_limits.html:
   * "new submission requests will be denied until previous jobs complete").
   *
   * @param unfinished the jobs not yet finished; asked for only when a limit applies
   * @return null when the job may be queued, else Slurm's error saying which limit
   */
  public static String jobLimitRefusal(Job submitted, List<Account> accounts, Map<String, Qos> qos,
      Supplier<Collection<Job>> unfinished) {
    Map<String, Account> byName = accounts.stream().collect(Collectors.toMap(Account::name, a -> a));
    Integer perAssociation = AccountingPolicy.nearest(AccountingPolicy.chain(byName, submitted.account()),
        Account.Limits::maxSubmitJobs);
    Qos q = submitted.qos() == null ? null : qos.get(submitted.qos());
    Integer perQosUser = q == null ? null : q.maxSubmitJobsPerUser();
    if (perAssociation == null && perQosUser == null) {
      return null;
    }
    int inAssociation = 0;
    int inQos = 0;
    for (Job j : unfinished.get()) {
      if (!j.user().equals(submitted.user()) || j.state().isFinished()) {
        continue;
      }
      if (java.util.Objects.equals(j.account(), submitted.account())) {
        inAssociation += jobCount(j);
      }
      if (java.util.Objects.equals(j.qos(), submitted.qos())) {
        inQos += jobCount(j);
      }
    }
    int adding = jobCount(submitted);
    if (perAssociation != null && inAssociation + adding > perAssociation) {
      return ACCOUNTING_POLICY + ": account " + submitted.account() + " allows each user " + perAssociation
          + " pending or running jobs (MaxSubmitJobs); " + submitted.user() + " has " + inAssociation
          + (adding > 1 ? " and submits " + adding : "");
    }
    if (perQosUser != null && inQos + adding > perQosUser) {
      return ACCOUNTING_POLICY + ": QOS " + q.name() + " allows each user " + perQosUser
          + " pending or running jobs (MaxSubmitJobsPerUser); " + submitted.user() + " has " + inQos
          + (adding > 1 ? " and submits " + adding : "");
    }
    return null;
  }

  /** An array's waiting remainder counts each of its tasks, as Slurm counts array tasks as jobs. */
  private static int jobCount(Job j) {
    return j.isArrayRemainder() ? j.pendingTasks().size() : 1;
  }

  private static boolean couldHold(Node n, GangShape s) {
    return s.fitsEmpty(n) && s.typeMatches(n);
  }
}
