package io.squall.core.priority;

import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.Partition;
import io.squall.core.model.Qos;
import io.squall.core.model.TresBillingWeights;
import io.squall.core.model.UsageLedger;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Charges jobs' allocations to fair-share usage while they run, as Slurm's decay thread does
 * (priority_multifactor.c: {@code _decay_thread} every PriorityCalcPeriod decays all usage, then
 * {@code _apply_new_usage} adds each running job's billable TRES times the seconds since the last
 * run, to its association and every one above, and to its QOS). Each running job is charged up
 * to a watermark kept in the ledger; when its run ends (it finished, was requeued or preempted)
 * only what lies past the watermark is added. The controller and the what-if simulator both
 * charge through here.
 *
 * <p>Instants are kept to the millisecond (Slurm keeps seconds): a database keeps no finer, so a
 * restarted controller reads back exactly the watermarks and decay instant it wrote.
 *
 * <p>Slurm also decays the new usage of each period once more ({@code run_delta *
 * pow(decay_factor, run_delta)}); here a charge is added as used at the instant it is made, which
 * differs from that by under 0.05 % with the default 5 minute period and 7 day half-life.
 */
public final class UsageMeter {
  private final FairSharePolicy policy;
  private final Map<String, TresBillingWeights> weights = new TreeMap<>();
  private final Map<String, Double> usageFactors = new TreeMap<>();

  /**
   * @param partitions whose TRESBillingWeights bill their jobs; a job of another is billed per GPU
   * @param qos by name: each job's usage is multiplied by its QOS's UsageFactor (1 for another)
   */
  public UsageMeter(FairSharePolicy policy, List<Partition> partitions, Map<String, Qos> qos) {
    this.policy = policy;
    partitions.forEach(p -> weights.put(p.name(), p.billingWeights()));
    qos.forEach((name, q) -> usageFactors.put(name, q.usageFactor()));
  }

  public FairSharePolicy policy() {
    return policy;
  }

  /** A ledger with no usage yet, decaying with the policy's half-life. */
  public UsageLedger empty(Instant at) {
    return UsageLedger.empty(at, policy.decayHalfLife());
  }

  /** Whether a PriorityCalcPeriod has passed since the ledger was last decayed. */
  public boolean due(UsageLedger usage, Instant now) {
    return !now.isBefore(usage.asOf().plus(policy.calcPeriod()));
  }

  /**
   * Once a PriorityCalcPeriod has passed: decays usage to {@code now} and charges every running
   * job (of {@code jobs}, those that hold resources and have started) from its watermark, or its
   * start, to {@code now}. Before that, answers {@code usage} itself.
   */
  public UsageLedger charge(UsageLedger usage, Collection<Job> jobs, Instant now) {
    if (!due(usage, now)) {
      return usage;
    }
    Instant at = now.truncatedTo(ChronoUnit.MILLIS);
    List<UsageLedger.Use> uses = new ArrayList<>();
    Map<JobKey, Instant> charged = new TreeMap<>();
    for (Job j : jobs) {
      if (j.state().holdsResources() && j.startTime() != null) {
        addUse(uses, j, chargedFrom(usage, j), at);
        charged.put(j.key(), at);
      }
    }
    return usage.decayedTo(at).plus(uses, at).withChargedUntil(charged);
  }

  /**
   * The job's run ended at {@code end}: charges what it used past its watermark (all of its run if
   * no period charged it yet) and forgets the watermark. {@code run} is the job as it ran, with its
   * allocation.
   */
  public UsageLedger ended(UsageLedger usage, Job run, Instant end) {
    UsageLedger out = usage;
    if (usage.chargedUntil().containsKey(run.key())) {
      Map<JobKey, Instant> charged = new TreeMap<>(usage.chargedUntil());
      charged.remove(run.key());
      out = usage.withChargedUntil(charged);
    }
    if (run.startTime() == null) {
      return out;
    }
    List<UsageLedger.Use> uses = new ArrayList<>(1);
    addUse(uses, run, chargedFrom(usage, run), end);
    return out.plus(uses, end);
  }

  private static Instant chargedFrom(UsageLedger usage, Job j) {
    Instant mark = usage.chargedUntil().get(j.key());
    return mark != null && mark.isAfter(j.startTime()) ? mark : j.startTime();
  }

  private void addUse(List<UsageLedger.Use> uses, Job j, Instant from, Instant to) {
    double seconds = Duration.between(from, to).toMillis() / 1000.0;
    if (seconds > 0) {
      TresBillingWeights w = weights.getOrDefault(j.partition(), TresBillingWeights.GPUS);
      // Slurm's UsageFactor: "Usage factor when running with this QOS" (0: free).
      double factor = j.qos() == null ? 1 : usageFactors.getOrDefault(j.qos(), 1.0);
      uses.add(new UsageLedger.Use(j.account(), j.user(), j.qos(), w.billing(j.allocation()) * seconds * factor,
          j.gpusHeld() * seconds * factor));
    }
  }
}
