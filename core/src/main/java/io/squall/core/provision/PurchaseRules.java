package io.squall.core.provision;

import io.squall.core.money.PriceCaps;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finance's rules, turned into what the fleet may buy for each job ({@link JobPurchase}): the
 * capacity of its QOS, what its deadline needs now ({@link UniformProgress}), spot only past its
 * account's soft budget, and the price caps of its QOS and of its account and the accounts above.
 * The controller and the simulator ask the same rules each fleet tick. Immutable.
 */
public final class PurchaseRules {
  /**
   * A QOS's rule.
   *
   * @param capacity what its jobs may be bought as; null for what their partition allows (and
   *     their deadline, when they have one)
   */
  public record QosRule(QosCapacity capacity, PriceCaps caps) {
    public QosRule {
      Objects.requireNonNull(caps, "caps");
    }
  }

  /**
   * What the rules need to know of one job holding nodes.
   *
   * @param deadline its {@code --deadline}; null for none
   * @param work all the work it needs: its time limit
   * @param done the work it has checkpointed (a restart resumes from there)
   * @param changeover from losing nodes to running again on new ones (its partition's boot plus restore)
   * @param reworkHours what one interruption costs it in hours (see {@link JobPurchase#reworkHours})
   * @param restartsLeft interruptions it may still take and be requeued rather than held (its
   *     partition's max-restarts less the interruptions that stopped it)
   */
  public record JobFacts(String key, String account, String qos, Instant submitted, Instant deadline, Duration work,
      Duration done, Duration changeover, double reworkHours, int restartsLeft) {}

  public static final PurchaseRules NONE = new PurchaseRules(Map.of(), Map.of(), Map.of());

  private final Map<String, QosRule> qos;
  private final Map<String, PriceCaps> accountCaps;
  private final Map<String, String> parentOf;

  /**
   * @param qos each QOS's rule, by name; a QOS not named has none
   * @param accountCaps each account's own price caps; a sub-account is held to its parents' too
   * @param parentOf each sub-account's parent
   */
  public PurchaseRules(Map<String, QosRule> qos, Map<String, PriceCaps> accountCaps, Map<String, String> parentOf) {
    this.qos = Map.copyOf(qos);
    this.accountCaps = Map.copyOf(accountCaps);
    this.parentOf = Map.copyOf(parentOf);
  }

  /**
   * The job's rules now.
   *
   * @param spotOnlyAccounts accounts past a soft budget: their jobs may run on spot only
   */
  public JobPurchase forJob(JobFacts job, Instant now, Set<String> spotOnlyAccounts) {
    JobPurchase p = JobPurchase.PARTITION.withRework(job.reworkHours());
    QosRule rule = job.qos() == null ? null : qos.get(job.qos());
    QosCapacity capacity = rule == null ? null : rule.capacity();
    if (capacity != null && capacity.buys().isPresent()) {
      p = p.and(capacity.buys().get(), null, "QOS " + job.qos() + ": " + capacity.configName());
    }
    // A spot-only QOS keeps its jobs on spot whatever their deadline; an on-demand one needs no
    // deadline rule. Every other job with a deadline follows Uniform Progress.
    if (job.deadline() != null && capacity != QosCapacity.SPOT_ONLY && capacity != QosCapacity.ON_DEMAND) {
      UniformProgress.Decision d = UniformProgress.decide(now, job.submitted(), job.deadline(), job.work(),
          job.done(), job.changeover(), job.restartsLeft());
      p = p.and(d.capacity(), d.onDemandAfter(), d.why()).until(d.until());
    }
    if (job.account() != null && spotOnlyAccounts.contains(job.account())) {
      p = p.and(SpotPolicy.SPOT, null, "spot only (the account is past its soft budget)");
    }
    if (rule != null) {
      p = p.withCaps(rule.caps(), "QOS " + job.qos() + " caps " + rule.caps());
    }
    PriceCaps account = accountCaps(job.account());
    return p.withCaps(account, "account " + job.account() + " caps " + account);
  }

  /** The QOS's rule; null when it has none. */
  public QosRule qosRule(String name) {
    return qos.get(name);
  }

  /** The account's caps with those of every account above it. */
  public PriceCaps accountCaps(String account) {
    if (account == null) {
      return PriceCaps.NONE;
    }
    PriceCaps caps = PriceCaps.NONE;
    Set<String> seen = new TreeSet<>();
    for (String at = account; at != null && seen.add(at); at = parentOf.get(at)) {
      caps = caps.tighter(accountCaps.getOrDefault(at, PriceCaps.NONE));
    }
    return caps;
  }
}
