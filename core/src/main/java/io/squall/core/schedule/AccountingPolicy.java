package io.squall.core.schedule;

import io.squall.core.model.Account;
import io.squall.core.model.Job;
import io.squall.core.model.Qos;
import io.squall.core.model.Tres;
import io.squall.core.model.UsageLedger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * QOS and association limits for one cycle, as slurmctld's acct_policy enforces them: what running
 * jobs (and those started in this cycle) hold is counted per QOS, per QOS and user, per account
 * (with its sub-accounts) and per user association; a job that would take a count past a limit
 * waits with the limit's reason. The QOS is checked first, then the user's association, then the
 * accounts above it (resource_limits.html, "Hierarchy"). GrpTRESMins counts decayed past usage
 * plus what running jobs may still use over their time limits (Slurm's {@code safe} enforcement:
 * a job starts only if it can run to its limit).
 */
final class AccountingPolicy {
  /** What a job holds (or asks for) in the resources limits count. */
  record Use(int gpus, int cpus, long memoryMb, int nodes) {
    static final Use ZERO = new Use(0, 0, 0, 0);

    Use plus(Use o) {
      return new Use(gpus + o.gpus, cpus + o.cpus, memoryMb + o.memoryMb, nodes + o.nodes);
    }
  }

  /** Reasons for one TRES limit, in the order gres/gpu, cpu, mem, node. */
  private record Reasons(PendingReason gpus, PendingReason cpus, PendingReason memory, PendingReason nodes) {}

  private static final Reasons QOS_GRP = new Reasons(PendingReason.QOS_GRP_GRES, PendingReason.QOS_GRP_CPU,
      PendingReason.QOS_GRP_MEM, PendingReason.QOS_GRP_NODE);
  private static final Reasons QOS_PER_USER = new Reasons(PendingReason.QOS_MAX_GRES_PER_USER,
      PendingReason.QOS_MAX_CPU_PER_USER, PendingReason.QOS_MAX_MEMORY_PER_USER, PendingReason.QOS_MAX_NODE_PER_USER);
  private static final Reasons ASSOC_GRP = new Reasons(PendingReason.ASSOC_GRP_GRES, PendingReason.ASSOC_GRP_CPU,
      PendingReason.ASSOC_GRP_MEM, PendingReason.ASSOC_GRP_NODE);

  private final Map<String, Qos> qos;
  private final Map<String, Account> accounts = new HashMap<>();
  private final Map<String, Use> byQos = new HashMap<>();
  private final Map<String, Use> byQosUser = new HashMap<>();
  private final Map<String, Integer> jobsByQosUser = new HashMap<>();
  private final Map<String, Use> byAccount = new HashMap<>();
  private final Map<String, Integer> jobsByAssociation = new HashMap<>();
  private final Map<String, Double> qosGpuMinutesCommitted = new HashMap<>();
  private final Map<String, Double> accountGpuMinutesCommitted = new HashMap<>();
  /** Decayed past GPU-minutes of each account with its sub-accounts. */
  private final Map<String, Double> accountGpuMinutesUsed = new HashMap<>();
  private final UsageLedger usage;

  AccountingPolicy(Map<String, Qos> qos, List<Account> accountList, UsageLedger usage) {
    this.qos = qos;
    this.usage = usage;
    accountList.forEach(a -> accounts.put(a.name(), a));
    usage.byAssociation().forEach((association, gpuSeconds) -> {
      String account = association.substring(0, association.lastIndexOf('/'));
      for (Account a : chain(account)) {
        accountGpuMinutesUsed.merge(a.name(), gpuSeconds / 60.0, Double::sum);
      }
    });
  }

  /**
   * Counts a running job, or one started in this cycle.
   *
   * @param gpuMinutes what it may still use until its time limit ends (infinite for UNLIMITED),
   *     before its QOS's UsageFactor
   */
  void add(Job job, Use held, double gpuMinutes) {
    Qos q = qosOf(job);
    double charged = gpuMinutes * (q == null ? 1 : q.usageFactor());
    if (job.qos() != null) {
      byQos.merge(job.qos(), held, Use::plus);
      byQosUser.merge(qosUser(job), held, Use::plus);
      jobsByQosUser.merge(qosUser(job), 1, Integer::sum);
      qosGpuMinutesCommitted.merge(job.qos(), charged, Double::sum);
    }
    jobsByAssociation.merge(association(job), 1, Integer::sum);
    for (Account a : chain(job.account())) {
      byAccount.merge(a.name(), held, Use::plus);
      accountGpuMinutesCommitted.merge(a.name(), charged, Double::sum);
    }
  }

  /**
   * The first limit the job would pass if it started now holding {@code ask}, or null.
   *
   * @param gpuMinutes what it may use over its whole time limit, before its QOS's UsageFactor
   */
  PendingReason check(Job job, Use ask, double gpuMinutes) {
    Qos q = qosOf(job);
    double charged = gpuMinutes * (q == null ? 1 : q.usageFactor());
    if (q != null) {
      PendingReason r = over(q.grpTres(), byQos.getOrDefault(q.name(), Use.ZERO), ask, QOS_GRP);
      if (r != null) {
        return r;
      }
      if (q.grpGpuMinutes() != null && charged > 0) {
        double used = usage.qosGpuSeconds().getOrDefault(q.name(), 0.0) / 60.0;
        if (used + qosGpuMinutesCommitted.getOrDefault(q.name(), 0.0) + charged > q.grpGpuMinutes()) {
          return PendingReason.QOS_GRP_GRES_MINUTES;
        }
      }
      if (q.maxJobsPerUser() != null && jobsByQosUser.getOrDefault(qosUser(job), 0) + 1 > q.maxJobsPerUser()) {
        return PendingReason.QOS_MAX_JOBS_PER_USER;
      }
      r = over(q.maxTresPerUser(), byQosUser.getOrDefault(qosUser(job), Use.ZERO), ask, QOS_PER_USER);
      if (r != null) {
        return r;
      }
    }
    List<Account> chain = chain(job.account());
    Integer maxJobs = nearest(chain, Account.Limits::maxJobs);
    if (maxJobs != null && jobsByAssociation.getOrDefault(association(job), 0) + 1 > maxJobs) {
      return PendingReason.ASSOC_MAX_JOBS;
    }
    for (Account a : chain) {
      PendingReason r = over(a.limits().grpTres(), byAccount.getOrDefault(a.name(), Use.ZERO), ask, ASSOC_GRP);
      if (r != null) {
        return r;
      }
      Long minutes = a.limits().grpGpuMinutes();
      if (minutes != null && charged > 0 && accountGpuMinutesUsed.getOrDefault(a.name(), 0.0)
          + accountGpuMinutesCommitted.getOrDefault(a.name(), 0.0) + charged > minutes) {
        return PendingReason.ASSOC_GRP_GRES_MINUTES;
      }
    }
    return null;
  }

  /** A job that asks for none of a TRES is not held back by that TRES's limit, however full. */
  private static PendingReason over(Tres limit, Use held, Use ask, Reasons reasons) {
    if (limit.gpus() != null && ask.gpus() > 0 && held.gpus() + ask.gpus() > limit.gpus()) {
      return reasons.gpus();
    }
    if (limit.cpus() != null && ask.cpus() > 0 && held.cpus() + ask.cpus() > limit.cpus()) {
      return reasons.cpus();
    }
    if (limit.memoryMb() != null && ask.memoryMb() > 0 && held.memoryMb() + ask.memoryMb() > limit.memoryMb()) {
      return reasons.memory();
    }
    if (limit.nodes() != null && ask.nodes() > 0 && held.nodes() + ask.nodes() > limit.nodes()) {
      return reasons.nodes();
    }
    return null;
  }

  private List<Account> chain(String account) {
    return chain(accounts, account);
  }

  /** The account and every account above it, nearest first; empty for an unknown account. */
  static List<Account> chain(Map<String, Account> accounts, String account) {
    List<Account> out = new ArrayList<>(2);
    Account a = account == null ? null : accounts.get(account);
    // Bounded by the number of accounts, should the configuration close a loop.
    while (a != null && out.size() <= accounts.size()) {
      out.add(a);
      a = a.parent() == null ? null : accounts.get(a.parent());
    }
    return out;
  }

  /**
   * A per-association limit as the user's association has it: set on the nearest account that sets
   * it (resource_limits.html: "the point in this list where the limit is first defined will be used").
   */
  static Integer nearest(List<Account> chain, Function<Account.Limits, Integer> limit) {
    for (Account a : chain) {
      Integer value = limit.apply(a.limits());
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  /** The job's QOS, or null when it has none or an unknown one (immutable maps throw on get(null)). */
  private Qos qosOf(Job job) {
    return job.qos() == null ? null : qos.get(job.qos());
  }

  private static String qosUser(Job job) {
    return job.qos() + "\u0000" + job.user();
  }

  private static String association(Job job) {
    return UsageLedger.association(job.account(), job.user());
  }
}
