package io.squall.simulate;

import io.squall.checkpoint.Checkpoint;
import io.squall.core.model.Account;
import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.model.Partition;
import io.squall.core.model.Qos;
import io.squall.core.model.UsageLedger;
import io.squall.core.priority.UsageMeter;
import io.squall.core.model.UserAssociation;
import io.squall.core.money.Budget;
import io.squall.core.money.BudgetLimits;
import io.squall.core.money.Budgets;
import io.squall.core.money.Charges;
import io.squall.core.money.CostSplit;
import io.squall.core.money.PriceSeries;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.Offering;
import io.squall.core.provision.CapacityPolicy;
import io.squall.core.provision.FleetActuator;
import io.squall.core.provision.FleetLedger;
import io.squall.core.provision.JobPurchase;
import io.squall.core.provision.PurchaseRules;
import io.squall.core.provision.PowerAction;
import io.squall.core.sbatch.SbatchParser;
import io.squall.core.schedule.Action;
import io.squall.core.schedule.CycleWakeup;
import io.squall.core.schedule.PlanApplication;
import io.squall.core.schedule.Scheduler;
import io.squall.core.schedule.SchedulerConfig;
import io.squall.core.spot.Interruption;
import io.squall.core.time.ManualClock;
import io.squall.spot.drain.DrainBook;
import io.squall.spot.drain.DrainLedger;
import io.squall.spot.drain.DrainMark;
import io.squall.spot.drain.DrainRules;
import io.squall.spot.drain.JobRun;
import io.squall.spot.drain.RequeueDecision;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A cluster's partitions in virtual time: the production {@link Scheduler} and fleet engine
 * ({@link FleetActuator}) against a {@link SimulatedProvider}. Elastic partitions' nodes start
 * powered down and are bought by the fleet engine; static partitions' nodes are up from the
 * start, never billed, and left alone by the fleet engine (below, "nodes" are the elastic ones
 * where machines are concerned).
 *
 * <p>Semantics, per virtual instant ("tick", on a grid of {@link Setup#tick()} from the start):
 * <ol>
 *   <li>jobs due are submitted (as sbatch requests through {@link SbatchParser}); running jobs
 *       whose runtime is over end COMPLETED (their nodes are idle from the exact end time when
 *       no other job holds them); launched nodes whose instance has booted are up (ALLOCATED
 *       when a job holds them, else IDLE), and a CONFIGURING job whose nodes are all up starts
 *       RUNNING then; a job whose begin time (restart backoff) has come wakes the scheduler;</li>
 *   <li>spot interruptions, when the provider takes instances back ({@link SimulatedProvider#reclaims}),
 *       handled by the controller's own drain engine ({@link DrainBook}, {@link RequeueDecision}): a
 *       node whose instance's notice is due is drained (DRAINING: no new work, never suspended);
 *       each RUNNING job on it gets its checkpoint signal at once and is stopped as soon as a
 *       checkpoint taken since the notice is written, or at the notice's deadline minus
 *       {@link InterruptionRules#margin()}, as its {@link Checkpointing} allows; a CONFIGURING job on
 *       it is requeued at once. A stopped job is requeued whole (same id, restart count + 1, age
 *       kept, its other nodes freed) and restarts from its newest checkpoint: the GPU time from that
 *       checkpoint's state to the stop is lost work. From its second restart on it may not start
 *       before {@link InterruptionRules#restartBackoff()} doubled per restart after the second; past
 *       {@link InterruptionRules#maxRestarts()} it is held (and nobody releases it). The notice
 *       marks the node's offering as reclaimed ({@link FleetActuator#spotReclaimed}, so replacements
 *       go to another zone, or on-demand at once). Once no job is left on the node, the machine
 *       goes and the node is released as below;</li>
 *   <li>a scheduler cycle runs when the service's would ({@link CycleWakeup}): woken by a
 *       submission, a job's end or a cycle that started jobs, at the first tick at or after the
 *       instant the rule gives (a cycle covers the wakes made before it); and when something else
 *       changed since the last one (a boot, a requeue, a backoff's end) and at least {@link
 *       Setup#schedulerInterval()} has passed since it; its
 *       plan is carried out by the controller's {@link PlanApplication}. A Start on nodes that are all up runs the job at once; a Start that includes powered-down
 *       (CLOUD) or powering-up nodes makes the job CONFIGURING, holding them, and each CLOUD node
 *       POWERING_UP (resume requested now, waiting for a launch call). Timeouts end jobs; a
 *       preempted job goes to the drain engine as in the controller (one tier, one partition: none
 *       here); capacity demand has no effect;</li>
 *   <li>the fleet engine ticks: the controller's own {@link FleetActuator} (power planner,
 *       launch calls with capacity fallback in the same tick, suspends, releases, DOWN nodes
 *       powered down after {@link FleetActuator#DOWN_FOR}) against this simulation's memory instead
 *       of the controller's database. A release requeues the jobs holding the nodes (their other
 *       nodes are freed, and stay as they are: up, or powering up).</li>
 * </ol>
 * The fleet's timers restart whenever a node's state or the jobs holding it change. Between
 * ticks nothing happens, so the loop jumps to the next tick at which something can: a
 * submission, a job end, a boot, a suspend, resume-timeout or DOWN deadline, a deferred cycle,
 * an interruption notice, stop or machine deadline, a restart backoff's end, and while nodes wait
 * for a launch call, when the fleet could decide it otherwise ({@link FleetActuator#nextDecision}).
 * The run ends when every job has ended (or is held after too many restarts) and every node is
 * powered down again, or after {@link Setup#maxTime()}.
 *
 * <p>Deterministic: ordered maps everywhere, ties broken by job key and node name; the same
 * setup, provider seed and workload give an equal {@link Result} (event log included).
 *
 * <p>Not thread-safe; one run per instance.
 */
public final class ElasticSimulation {
  /**
   * A partition of the simulated cluster: elastic (its nodes powered down at the start, bought by
   * the fleet engine under {@code policy}) or static (its nodes up from the start, never billed).
   *
   * @param partition the partition as the controller's configuration makes it (its limits, tier,
   *     default flag)
   * @param nodes its nodes (their state is ignored)
   * @param policy its capacity policy; null for a static partition
   */
  public record PartitionSetup(Partition partition, List<Node> nodes, CapacityPolicy policy) {
    public PartitionSetup {
      Objects.requireNonNull(partition, "partition");
      nodes = List.copyOf(nodes);
      if (nodes.isEmpty()) {
        throw new IllegalArgumentException("partition " + partition.name() + " has no node");
      }
    }

    /** One elastic partition of these nodes, the default one. */
    public static PartitionSetup elastic(String name, List<Node> nodes, CapacityPolicy policy) {
      return new PartitionSetup(Partition.of(name, nodes.stream().map(Node::name).toList()).asDefault(), nodes,
          Objects.requireNonNull(policy, "policy"));
    }

    public boolean elastic() {
      return policy != null;
    }
  }

  /**
   * The partitions and how the loop runs.
   *
   * @param partitions the cluster's partitions (a node in one only), at least one
   * @param tick the grid of virtual instants at which the loop acts (the controller's loop period)
   * @param schedulerInterval the least virtual time between two scheduler cycles
   * @param maxTime the run stops after this much virtual time even if work remains
   * @param purchaseRules finance's rules per QOS and account (the controller's), asked for every
   *     job holding nodes at each fleet tick; {@link PurchaseRules#NONE} by default
   * @param budgets the accounts' budgets; spend is added up at scheduler cycles at most every
   *     {@link #BUDGET_INTERVAL}, as the controller's BudgetWatch does at its {@code budget-interval}
   * @param accounting the configured QOS, accounts and users, with their limits; {@link
   *     Accounting#NONE} by default
   */
  public record Setup(String cluster, List<PartitionSetup> partitions, SchedulerConfig scheduler, Duration tick,
      Duration schedulerInterval, Duration maxTime, PurchaseRules purchaseRules, List<Budget> budgets,
      Accounting accounting) {
    public Setup {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(scheduler, "scheduler");
      partitions = List.copyOf(partitions);
      if (partitions.isEmpty()) {
        throw new IllegalArgumentException("a simulation needs a partition");
      }
      purchaseRules = purchaseRules == null ? PurchaseRules.NONE : purchaseRules;
      budgets = budgets == null ? List.of() : List.copyOf(budgets);
      accounting = accounting == null ? Accounting.NONE : accounting;
      if (tick.isNegative() || tick.isZero()) {
        throw new IllegalArgumentException("tick must be positive");
      }
    }

    /** No QOS, account or user configured ({@link Accounting#NONE}). */
    public Setup(String cluster, List<PartitionSetup> partitions, SchedulerConfig scheduler, Duration tick,
        Duration schedulerInterval, Duration maxTime, PurchaseRules purchaseRules, List<Budget> budgets) {
      this(cluster, partitions, scheduler, tick, schedulerInterval, maxTime, purchaseRules, budgets, Accounting.NONE);
    }

    /** One elastic partition, the default one; a 250 ms tick, a cycle at most every second, at most 90 virtual days. */
    public static Setup of(String cluster, String partition, List<Node> nodes, CapacityPolicy policy) {
      return new Setup(cluster, List.of(PartitionSetup.elastic(partition, nodes, policy)), SchedulerConfig.defaults(),
          Duration.ofMillis(250), Duration.ofSeconds(1), Duration.ofDays(90), PurchaseRules.NONE, List.of());
    }

    public Setup withScheduler(SchedulerConfig config) {
      return new Setup(cluster, partitions, config, tick, schedulerInterval, maxTime, purchaseRules, budgets, accounting);
    }

    public Setup withSchedulerInterval(Duration interval) {
      return new Setup(cluster, partitions, scheduler, tick, interval, maxTime, purchaseRules, budgets, accounting);
    }

    public Setup withMaxTime(Duration max) {
      return new Setup(cluster, partitions, scheduler, tick, schedulerInterval, max, purchaseRules, budgets, accounting);
    }

    public Setup withPurchaseRules(PurchaseRules rules) {
      return new Setup(cluster, partitions, scheduler, tick, schedulerInterval, maxTime, rules, budgets, accounting);
    }

    public Setup withBudgets(List<Budget> newBudgets) {
      return new Setup(cluster, partitions, scheduler, tick, schedulerInterval, maxTime, purchaseRules, newBudgets,
          accounting);
    }

    public Setup withAccounting(Accounting configured) {
      return new Setup(cluster, partitions, scheduler, tick, schedulerInterval, maxTime, purchaseRules, budgets,
          configured);
    }
  }

  /**
   * One job of the workload, submitted as {@code sbatch -N nodes --gres=gpu:gpusPerNode -t limit [-p partition]}
   * where the limit is the one it asked for, else its runtime and 5 minutes, rounded up to the minute, with
   * {@code --deadline now+S} (S the deadline in seconds), {@code -A account} and {@code --qos qos}
   * when they are set.
   *
   * @param submitAt when it is submitted, from the start of the run
   * @param runtime how long it runs once all its nodes are up
   * @param deadline its deadline, from its submission; null for none
   * @param account its account; null for the simulation's default one
   * @param qos its QOS; null for {@code normal}
   * @param timeLimit the time limit it asked for; null for its runtime and 5 min
   * @param partition the partition it asks for ({@code -p}); null for the default one
   * @param user who submits it; null for the simulation's one user
   */
  public record JobSpec(Duration submitAt, int nodes, int gpusPerNode, Duration runtime, Duration deadline,
      String account, String qos, Duration timeLimit, String partition, String user) {
    public JobSpec {
      if (nodes < 1 || gpusPerNode < 0 || runtime.isNegative() || submitAt.isNegative()) {
        throw new IllegalArgumentException("job spec needs nodes >= 1, gpus >= 0, runtime and submit >= 0");
      }
      if (deadline != null && deadline.toSeconds() < 1) {
        throw new IllegalArgumentException("a job's deadline must be at least 1 s after its submission");
      }
      if (timeLimit != null && timeLimit.compareTo(runtime) < 0) {
        throw new IllegalArgumentException("a job's time limit " + timeLimit + " is shorter than its runtime " + runtime);
      }
    }

    /** No deadline, the default account and QOS, the time limit its runtime and 5 min. */
    public JobSpec(Duration submitAt, int nodes, int gpusPerNode, Duration runtime) {
      this(submitAt, nodes, gpusPerNode, runtime, null, null, null, null, null, null);
    }

    public JobSpec withDeadline(Duration afterSubmission) {
      return new JobSpec(submitAt, nodes, gpusPerNode, runtime, afterSubmission, account, qos, timeLimit, partition, user);
    }

    public JobSpec withAccount(String newAccount) {
      return new JobSpec(submitAt, nodes, gpusPerNode, runtime, deadline, newAccount, qos, timeLimit, partition, user);
    }

    public JobSpec withQos(String newQos) {
      return new JobSpec(submitAt, nodes, gpusPerNode, runtime, deadline, account, newQos, timeLimit, partition, user);
    }

    /** The time limit the job asked for (what backfill plans with), at least its runtime. */
    public JobSpec withTimeLimit(Duration limit) {
      return new JobSpec(submitAt, nodes, gpusPerNode, runtime, deadline, account, qos, limit, partition, user);
    }

    public JobSpec withUser(String name) {
      return new JobSpec(submitAt, nodes, gpusPerNode, runtime, deadline, account, qos, timeLimit, partition, name);
    }

    public JobSpec withPartition(String name) {
      return new JobSpec(submitAt, nodes, gpusPerNode, runtime, deadline, account, qos, timeLimit, name, user);
    }

    /** Its {@code -t} in whole minutes, rounded up as Slurm does: the limit asked, else its runtime and 5 min. */
    long timeLimitMinutes() {
      return timeLimit != null ? (timeLimit.toSeconds() + 59) / 60 : (runtime.toSeconds() + 59) / 60 + 5;
    }
  }

  /**
   * What a run gave.
   *
   * @param jobs jobs submitted (before maxTime)
   * @param jobsCompleted jobs that ran to their end
   * @param launchCalls calls to the provider's launch, failed ones included
   * @param failedLaunchCalls of those, the ones that failed
   * @param nodesLaunched instances made
   * @param spotNodesLaunched of those, spot ones
   * @param partialGangsBilled instances made by launch calls that returned fewer instances than
   *     the call asked for ({@link SimulatedProvider#partialGangInstances()}; none while gangs
   *     ask all or nothing)
   * @param orphans instances the provider still lists at the end that no node holds
   * @param jobsLaunchedFor distinct jobs that, for some allocation, needed a launch call for at
   *     least one node and got one for each
   * @param medianTimeToLaunchCallMs per such allocation: from the allocation (the job's
   *     submission, if it was allocated in the first cycle that saw it) to the launch call that
   *     covered its last node; the lower median; 0 when no job needed one
   * @param maxTimeToLaunchCallMs the largest of those
   * @param timesToLaunchCallMs all of those, in ascending order
   * @param idleNodeHours time elastic nodes were up with no job on them
   * @param billedNodeHours instance time billed
   * @param billedGpuHours instance time billed × the GPUs of the node it was bought for
   * @param billedDollars what that cost at the offerings' prices
   * @param requeues jobs put back in the queue because their nodes were released
   * @param schedulerCycles cycles run
   * @param makespan from the start to the last job's end
   * @param finished whether every job ended (or is held) and every node was powered down before maxTime
   * @param events the event log (submissions aside), for determinism checks and debugging
   * @param interruptions interruption notices acted on (nodes drained)
   * @param interruptionRequeues jobs stopped or taken off a node because of an interruption and
   *     requeued (held ones included)
   * @param jobsHeld jobs held after more than {@link InterruptionRules#maxRestarts()} restarts
   * @param lostGpuHours GPU time the interruptions threw away: per stopped run, its GPUs × the time
   *     from the state it restarts from to its stop (a checkpoint holds the state at the start of
   *     its write, so a job stopped once its signal's checkpoint is written loses the write time;
   *     the controller's responder counts from the checkpoint's registration instead)
   * @param requeueToRestartMs per interruption requeue whose job ran again: from the requeue to its
   *     next RUNNING, ascending
   * @param spotNodeHours spot instance time billed (the exposure to reclaims)
   * @param firstRestartMs per requeue after a job's first interruption (no restart backoff) whose
   *     job ran again: from the requeue to its next RUNNING, ascending
   * @param strandedNodeHours instance time of nodes that were up and held by a job waiting for its
   *     other nodes, when the job did not then run on them (the allocation was given up, or the
   *     gang moved): billed to nodes whose gang could not run
   * @param bootWaitLostNodeHours instance time of up nodes held by a job waiting for another of
   *     its nodes to boot, when the cloud reclaimed that node before the job ran (the job is
   *     requeued): lost to interruptions, like lost work, and not part of {@code strandedNodeHours}
   * @param money what the run billed, split among the jobs and overhead, and its lower bound
   * @param outcomes every submitted job, by id
   * @param budgetSamples each budget's standing at each scheduler cycle that added spend up
   * @param launches the instances made, per launch call
   * @param samples the cluster each simulated hour ({@link Sample})
   */
  public record Result(int jobs, int jobsCompleted, long launchCalls, long failedLaunchCalls, long nodesLaunched,
      long spotNodesLaunched, long partialGangsBilled, int orphans, int jobsLaunchedFor, long medianTimeToLaunchCallMs,
      long maxTimeToLaunchCallMs, List<Long> timesToLaunchCallMs, double idleNodeHours, double billedNodeHours,
      double billedGpuHours, double billedDollars, int requeues, int schedulerCycles, Duration makespan, boolean finished,
      List<String> events, int interruptions, int interruptionRequeues, int jobsHeld, double lostGpuHours,
      List<Long> requeueToRestartMs, double spotNodeHours, List<Long> firstRestartMs,
      double strandedNodeHours, double bootWaitLostNodeHours, Money money, List<JobOutcome> outcomes,
      List<BudgetSample> budgetSamples, List<LaunchRecord> launches, List<Sample> samples) {
    public Result {
      outcomes = List.copyOf(outcomes);
      budgetSamples = List.copyOf(budgetSamples);
      launches = List.copyOf(launches);
      samples = List.copyOf(samples);
      timesToLaunchCallMs = List.copyOf(timesToLaunchCallMs);
      events = List.copyOf(events);
      requeueToRestartMs = List.copyOf(requeueToRestartMs);
      firstRestartMs = List.copyOf(firstRestartMs);
    }

    /** The lower median of {@link #firstRestartMs()}; 0 when no job interrupted once ran again. */
    public long medianFirstRestartMs() {
      return lowerMedian(firstRestartMs);
    }

    /** The lower median of {@link #requeueToRestartMs()}; 0 when no interrupted job ran again. */
    public long medianRequeueToRestartMs() {
      return lowerMedian(requeueToRestartMs);
    }
  }

  /**
   * What became of one job (times from the start of the run).
   *
   * @param partition the partition it ran in last, else the one it asked for (the default one if none)
   * @param deadline its deadline from the start of the run; null for none
   * @param firstStart when the scheduler first gave it nodes; null for never
   * @param firstRun when it first ran, its nodes up (after their boot); null for never
   * @param ended when it ended; null when it had not by the end of the run
   * @param state how it ended; null when it had not
   * @param pendingReason the reason it last waited for (the scheduler's), null when it never waited
   * @param usd its share of its nodes' bills ({@link Charges})
   * @param capacityTypes what its nodes were bought as
   * @param starts the scheduler's starts of it (restarts after a requeue included), each with the
   *     spend its account's budget had then
   */
  public record JobOutcome(long id, String account, String partition, int gpus, Duration submitted, Duration deadline,
      Duration firstStart, Duration firstRun, Duration ended, JobState state, String pendingReason, double usd,
      Set<CapacityType> capacityTypes, List<StartRecord> starts) {
    public JobOutcome {
      capacityTypes = Set.copyOf(capacityTypes);
      starts = List.copyOf(starts);
    }

    /** Whether it had a deadline and did not complete by it. */
    public boolean missedDeadline() {
      return deadline != null && (state != JobState.COMPLETED || ended.compareTo(deadline) > 0);
    }
  }

  /**
   * A start of a job by the scheduler, with what its account's budget stood at in that cycle.
   *
   * @param spentUsd the account's spend this period as added up in that cycle; 0 without a budget
   * @param hardUsd the account's hard limit; null for none
   * @param worstUsd the job's worst-case cost: its GPUs for its time limit at the dearest price per
   *     GPU-hour the partition may buy ({@link BudgetLimits#worstCostUsd})
   */
  public record StartRecord(Duration at, double spentUsd, Double hardUsd, double worstUsd) {
    /** Whether the account's spend and this job's worst case went past its hard limit. */
    public boolean pastHardLimit() {
      return hardUsd != null && spentUsd + worstUsd > hardUsd;
    }
  }

  /** A budget's standing as added up at {@code at}. */
  public record BudgetSample(Duration at, String account, double spentUsd, Double softUsd, Double hardUsd) {}

  /** A launch call's instances: how many, bought as what, for the accounts of the jobs holding the nodes. */
  public record LaunchRecord(Duration at, int nodes, CapacityType capacityType, Set<String> accounts) {
    public LaunchRecord {
      accounts = Set.copyOf(accounts);
    }
  }

  /**
   * The run's money, the controller's way ({@link CostSplit} over the {@link PriceSeries} the
   * fleet engine learnt): {@code billed} = {@code jobs} + {@code overhead}.
   *
   * @param jobs what the jobs' holds on their nodes cost (their nodes' boot while they waited
   *     for it, runs later lost to interruptions and on-demand time included)
   * @param onDemandJobs the part of {@code jobs} on on-demand instances
   * @param overhead what no job held: boots nobody waited for, idle nodes before they were given
   *     back, GPUs of a node no job held
   * @param lowerBound the completed jobs' GPU-hours without interruptions × the cheapest spot
   *     price per GPU-hour the provider lists for the partition's types, in force while each ran
   * @param boot the part of {@code jobs} paid while a job's nodes booted (its share of each node
   *     from its allocation to its start, at the node's launch price)
   * @param rework the part of {@code jobs} paid for work interruptions took, which was done again
   *     (the GPU-hours lost, at the price of the node they were lost on)
   * @param unfinished the part of {@code jobs} paid by jobs that did not complete (held past
   *     max-restarts, or still running at the end): the lower bound counts no work of theirs
   */
  public record Money(double billed, double jobs, double onDemandJobs, double overhead, double lowerBound,
      double boot, double rework, double unfinished) {
    /** Billed over the lower bound; 0 when there is no lower bound. */
    public double ratio() {
      return lowerBound > 0 ? billed / lowerBound : 0;
    }

    /**
     * What the completed jobs' useful work cost above the lower bound: on-demand and spot dearer
     * than the cheapest zone, and what else they held that was not work (checkpoint writes).
     * The rest of the gap over the lower bound is {@code overhead + boot + rework + unfinished}.
     */
    public double price() {
      return jobs - boot - rework - unfinished - lowerBound;
    }
  }

  /**
   * The cluster at one instant of the run, for a report over time.
   *
   * @param at time since the run's start
   * @param queued jobs submitted and waiting to start (held ones included)
   * @param runningGpus GPUs of the jobs running
   * @param spotNodes nodes whose machine is spot (booting or up)
   * @param onDemandNodes nodes whose machine is on-demand (booting or up)
   * @param spentUsd each account's cost so far ({@link Charges} of the bills until then)
   */
  public record Sample(Duration at, int queued, int runningGpus, int spotNodes, int onDemandNodes,
      Map<String, Double> spentUsd) {
    public Sample {
      spentUsd = Map.copyOf(spentUsd);
    }
  }

  /** The lower median of sorted values; 0 when there are none. */
  private static long lowerMedian(List<Long> sorted) {
    return sorted.isEmpty() ? 0 : sorted.get((sorted.size() - 1) / 2);
  }

  /**
   * A node as the controller knows it (the fleet engine keeps its own timers). Its state, jobs
   * and instance change only through its methods, which keep it in the loop's watch lists
   * ({@link Watched}) and renew what the scheduler and the fleet see of it.
   */
  private final class SimNode {
    final Node template;
    final PartitionSetup partition;
    private NodeState state = NodeState.CLOUD;
    private final Set<JobKey> holders = new TreeSet<>();
    /** Its instance; null when it has none (or its launch call made none). */
    private Instance instance;
    /** When it became up with no job on it; null when it is not. */
    Instant idleSince;
    /** The notice the cloud will give its instance; null for none. */
    private Interruption notice;
    /** Since when it is up and held by a job waiting for its other nodes; null when it is not. */
    Instant strandedSince;
    /** The holds of the jobs on it now: job, start and share (their end is not known yet). */
    final Map<JobKey, CostSplit.Holding> holds = new TreeMap<>();
    /** What the scheduler and the fleet saw of it last; null once it changed since. */
    private Node scheduled;
    private FleetLedger.FleetNode fleetNode;

    SimNode(Node template, PartitionSetup partition) {
      this.template = template;
      this.partition = partition;
    }

    /** Whether the fleet engine buys its machine (else it is a static node, up and never billed). */
    boolean elastic() {
      return partition.elastic();
    }

    boolean up() {
      return state == NodeState.IDLE || state == NodeState.ALLOCATED;
    }

    void state(NodeState to) {
      state = to;
      changed();
    }

    void hold(JobKey job) {
      holders.add(job);
      changed();
    }

    void leave(JobKey job) {
      holders.remove(job);
      changed();
    }

    /** Its instance and the notice the cloud will give it (null for none); a null instance for none. */
    void machine(Instance i, Interruption comingNotice) {
      if (instance != null) {
        watched.byInstance.remove(instance.id());
      }
      instance = i;
      notice = comingNotice;
      if (i != null) {
        watched.byInstance.put(i.id(), this);
      }
      changed();
    }

    void powerDown() {
      state = NodeState.CLOUD;
      machine(null, null);
    }

    /** The node as the scheduler sees it: up means idle or allocated by its jobs, with its machine. */
    Node scheduled() {
      if (scheduled == null) {
        NodeState s = up() ? (holders.isEmpty() ? NodeState.IDLE : NodeState.ALLOCATED) : state;
        Offering machine = instance == null ? null : instance.offering();
        scheduled = template.withState(s).withMachine(machine == null ? null : machine.zone(),
            machine == null ? null : machine.capacityType());
      }
      return scheduled;
    }

    FleetLedger.FleetNode fleetNode() {
      if (fleetNode == null) {
        fleetNode = new FleetLedger.FleetNode(template.name(), partition.partition().name(), template.placementGroup(),
            state, holders.stream().map(JobKey::toString).toList(), instance == null ? null : instance.offering().zone());
      }
      return fleetNode;
    }

    private void changed() {
      scheduled = null;
      fleetNode = null;
      watched.file(this);
    }
  }

  /**
   * The nodes the loop has to look at, kept up to date as they change, each in name order as the
   * whole partition is: a step walks these instead of all the nodes.
   */
  private static final class Watched {
    /** Launched instances still booting. */
    final Map<String, SimNode> booting = new TreeMap<>();
    /** Powering up without an instance: waiting for a launch call. */
    final Map<String, SimNode> awaitingCall = new TreeMap<>();
    /** With an instance the cloud will give a notice to, not acted on yet. */
    final Map<String, SimNode> noticeComing = new TreeMap<>();
    final Map<String, SimNode> draining = new TreeMap<>();
    /** Every elastic node not powered down (billed, or about to be): static nodes are never billed. */
    final Map<String, SimNode> notCloud = new TreeMap<>();
    final Map<String, SimNode> byInstance = new HashMap<>();

    void file(SimNode n) {
      String name = n.template.name();
      put(booting, name, n, n.state == NodeState.POWERING_UP && n.instance != null);
      put(awaitingCall, name, n, n.state == NodeState.POWERING_UP && n.instance == null);
      put(noticeComing, name, n, n.notice != null && n.instance != null && n.state != NodeState.DRAINING);
      put(draining, name, n, n.state == NodeState.DRAINING);
      put(notCloud, name, n, n.elastic() && n.state != NodeState.CLOUD);
    }

    private static void put(Map<String, SimNode> list, String name, SimNode n, boolean in) {
      if (in) {
        list.put(name, n);
      } else {
        list.remove(name);
      }
    }
  }

  /** A job and what the simulation knows of it. */
  private static final class SimJob {
    Job job;
    Instant endsAt;
    /** Whether a cycle has seen it pending (then its allocation, not its submission, starts the clock). */
    boolean seenByCycle;
    Instant measureFrom;
    final Set<String> awaitingCall = new TreeSet<>();
    /** Work left: its runtime less what its checkpoints kept from earlier runs. */
    Duration remaining;
    /** When this run got its checkpoint signal; null when it has not. */
    Instant signalledAt;
    /** When it was last requeued after an interruption, until it runs again; null otherwise. */
    Instant requeuedAt;
    /** Whether it was last requeued after its first interruption (no backoff). */
    boolean firstRestart;
    /** Interruptions that stopped it so far (what max-restarts counts, as in the controller). */
    int interruptions;

    /** Its work without interruptions. */
    final Duration runtime;
    /** What the workload said of it. */
    final JobSpec spec;
    Instant firstStart;
    /** When its processes first ran (its nodes up): the end of its users' wait. */
    Instant firstRun;
    Instant endedAt;
    JobState endState;
    String pendingReason;
    final List<StartRecord> starts = new ArrayList<>();

    SimJob(Job job, JobSpec spec) {
      this.job = job;
      this.spec = spec;
      this.runtime = spec.runtime();
      this.remaining = spec.runtime();
    }

    /** The work it has checkpointed (a restart resumes from there) at {@code now}. */
    Duration done(Checkpointing c, Instant now) {
      Duration kept = runtime.minus(remaining);
      if (job.state() == JobState.RUNNING && job.startTime() != null) {
        kept = kept.plus(Duration.between(job.startTime(), c.savedAt(job.startTime(), signalledAt, now)));
      }
      return kept;
    }
  }

  private static final String USER = "sim";
  private static final String ACCOUNT = "sim";

  private final Setup setup;
  private final InterruptionRules rules;
  private final ManualClock clock;
  private final SimulatedProvider provider;
  private final Scheduler scheduler;
  private final FleetActuator fleet;
  private final DrainBook drains = new DrainBook(new MemoryDrains());
  private final SbatchParser parser = new SbatchParser(ZoneOffset.UTC);
  private final Map<String, SimNode> nodes = new TreeMap<>();
  /** The same nodes in name order, as a list: walked at every cycle and fleet tick. */
  private List<SimNode> inNameOrder;
  private final Watched watched = new Watched();
  /** How often (virtual time) a run tells its {@link Progress} and samples the cluster ({@link Result#samples()}). */
  static final Duration PROGRESS_EVERY = Duration.ofHours(1);
  private final Map<JobKey, SimJob> jobs = new TreeMap<>();
  private final List<Sample> samples = new ArrayList<>();
  private final Map<Instant, SpendSoFar> spendFrom = new HashMap<>();
  /**
   * Spend is added up again at most this often, as the controller's {@code budget-interval}
   * (its default): a cycle in between uses the last standings.
   */
  static final Duration BUDGET_INTERVAL = Duration.ofSeconds(10);
  /** When spend was last added up; null before the first time. */
  private Instant lastBudget;
  private final PriorityQueue<SimJob> running = new PriorityQueue<>(
      Comparator.comparing((SimJob j) -> j.endsAt).thenComparing(j -> j.job.key()));
  private final List<String> events = new ArrayList<>();
  private final List<Long> launchWaitsMs = new ArrayList<>();
  private final TreeSet<Instant> wakeups = new TreeSet<>();
  private final List<Long> restartWaitsMs = new ArrayList<>();
  private final Set<JobKey> jobsLaunchedFor = new TreeSet<>();
  private final List<Partition> partitions;
  private Map<String, Qos> qos = Map.of("normal", Qos.normal());
  private List<Account> accounts = List.of(new Account(ACCOUNT, null, 1));
  private List<UserAssociation> users = List.of(new UserAssociation(USER, ACCOUNT, 1));
  /** Every job submitted, by id (ended ones too). */
  private final Map<Long, SimJob> allJobs = new TreeMap<>();
  /** Each job key's account, for spend by account. */
  private final Map<String, String> accountOfKey = new TreeMap<>();
  private Budgets budgets;
  /** What the budgets allowed as last added up; spot-only accounts feed the fleet's purchases. */
  private BudgetLimits limits = BudgetLimits.NONE;
  private final List<BudgetSample> budgetSamples = new ArrayList<>();
  private final List<LaunchRecord> launchRecords = new ArrayList<>();
  /** Fair-share usage, charged as the controller charges it: every calc period, and at each run's end. */
  private UsageLedger usage;
  private final UsageMeter usageMeter;
  private Instant start;
  private Instant lastEnd;
  private Instant lastCycle;
  private boolean changed;
  /** When the cycle a wake asked for runs ({@link CycleWakeup}); null when none is pending. */
  private Instant wokenCycleAt;
  private int startedThisCycle;
  private double idleSeconds;
  private double strandedSeconds;
  private double bootWaitLostSeconds;
  private double lowerBoundUsd;
  /** The jobs' holds on each node that have ended, for the money split. */
  private final Map<String, List<CostSplit.Holding>> heldBefore = new TreeMap<>();
  private final List<Long> firstRestartMs = new ArrayList<>();
  private long spotNodesLaunched;
  private int requeues;
  private int cycles;
  private int completed;
  private int interruptions;
  private int interruptionRequeues;
  private int held;
  private double lostGpuSeconds;
  /** Dollars of the jobs' holds while their nodes booted, and of the work interruptions took. */
  private double bootUsd;
  private double reworkUsd;
  /** Each interruption record's node price per GPU-second, until its loss is known. */
  private final Map<Long, Double> usdPerGpuSecondOfRecord = new HashMap<>();

  /**
   * With the controller's default interruption rules ({@link InterruptionRules#defaults()}).
   *
   * @param clock the clock {@code provider} reads; the simulation moves it, from its current instant
   */
  public ElasticSimulation(Setup setup, ManualClock clock, SimulatedProvider provider) {
    this(setup, clock, provider, InterruptionRules.defaults());
  }

  /**
   * @param clock the clock {@code provider} reads; the simulation moves it, from its current instant
   * @param rules what is done with jobs on interrupted nodes, and how they checkpoint
   */
  public ElasticSimulation(Setup setup, ManualClock clock, SimulatedProvider provider, InterruptionRules rules) {
    this.setup = setup;
    this.rules = Objects.requireNonNull(rules, "rules");
    this.clock = clock;
    this.provider = provider;
    this.scheduler = new Scheduler(setup.scheduler());
    Map<String, CapacityPolicy> policies = new TreeMap<>();
    for (PartitionSetup p : setup.partitions()) {
      if (p.elastic()) {
        policies.put(p.partition().name(), p.policy());
      }
    }
    this.fleet = new FleetActuator(setup.cluster(), policies, provider, new MemoryFleet());
    this.partitions = setup.partitions().stream().map(PartitionSetup::partition).toList();
    // QOS the trace names that are not configured are made up with no UsageFactor: charged whole.
    this.usageMeter = new UsageMeter(setup.scheduler().fairShare(), partitions, setup.accounting().qos());
  }

  /** Runs the workload to its end (or {@link Setup#maxTime()}). Call once. */
  public Result run(List<JobSpec> workload) {
    return run(workload, (simulated, submittedJobs, endedJobs) -> { });
  }

  /** Where a long run has got to: told once per simulated hour. */
  @FunctionalInterface
  public interface Progress {
    /**
     * @param simulated virtual time since the run's start
     * @param submitted jobs submitted so far
     * @param ended jobs that have ended so far (completed, failed or cancelled)
     */
    void reached(Duration simulated, int submitted, int ended);
  }

  /** {@link #run(List)}, telling {@code progress} each simulated hour how far it has got. */
  public Result run(List<JobSpec> workload, Progress progress) {
    if (start != null) {
      throw new IllegalStateException("a simulation runs once");
    }
    start = clock.instant();
    lastEnd = start;
    usage = usageMeter.empty(start);
    accountsOf(workload);
    for (PartitionSetup p : setup.partitions()) {
      for (Node n : p.nodes()) {
        SimNode sim = new SimNode(n, p);
        if (!p.elastic()) {
          sim.state(NodeState.IDLE); // a static node is up from the start
          sim.idleSince = start;
        }
        nodes.put(n.name(), sim);
      }
    }
    inNameOrder = List.copyOf(nodes.values());
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < workload.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparing((Integer i) -> workload.get(i).submitAt()).thenComparingInt(i -> i));
    int submitted = 0;
    Instant limit = start.plus(setup.maxTime());
    Instant now = start;
    Instant report = start.plus(PROGRESS_EVERY);
    boolean finished;
    while (true) {
      clock.set(now);
      // Nothing has happened since the last step: the cluster was as it is now at each hour passed.
      while (!now.isBefore(report)) {
        progress.reached(Duration.between(start, report), submitted, allJobs.size() - jobs.size());
        samples.add(sample(report));
        report = report.plus(PROGRESS_EVERY);
      }
      while (submitted < order.size() && !start.plus(workload.get(order.get(submitted)).submitAt()).isAfter(now)) {
        int i = order.get(submitted++);
        submit(i + 1L, workload.get(i), now);
      }
      while (!wakeups.isEmpty() && !wakeups.first().isAfter(now)) {
        wakeups.pollFirst();
        changed = true; // a restart backoff ended: the job may be placed now
      }
      endDueJobs(now);
      boot(now);
      interrupt(now);
      boolean woken = wokenCycleAt != null && !wokenCycleAt.isAfter(now);
      if (woken || (changed || budgetDue(now))
          && (lastCycle == null || !now.isBefore(lastCycle.plus(setup.schedulerInterval())))) {
        cycle(now);
      }
      fleet.tick(now);
      finished = submitted == order.size() && jobs.size() == held && watched.notCloud.isEmpty();
      if (finished || !now.isBefore(limit)) {
        break;
      }
      Instant next = next(now, submitted < order.size() ? start.plus(workload.get(order.get(submitted)).submitAt()) : null);
      if (next == null) {
        events.add(at(now) + " stuck: nothing left that could change");
        break;
      }
      now = next.isAfter(limit) ? limit : next;
    }
    return result(submitted, now, finished);
  }

  // ---------------------------------------------------------------- jobs

  /**
   * The configured accounts, users and QOS, and those the workload (and the budgets) name beyond
   * them: an account as a top-level one of one share, a user as associated with each account it
   * submits to, a QOS as {@code normal} buying as finance's rule for it says.
   */
  private void accountsOf(List<JobSpec> workload) {
    Accounting configured = setup.accounting();
    Map<String, Account> byName = new TreeMap<>();
    configured.accounts().forEach(a -> byName.put(a.name(), a));
    Set<String> named = new TreeSet<>();
    workload.forEach(j -> named.add(accountOf(j)));
    setup.budgets().forEach(b -> named.add(b.account()));
    named.forEach(a -> byName.putIfAbsent(a, new Account(a, null, 1)));
    accounts = List.copyOf(byName.values());
    Map<List<String>, UserAssociation> associations = new LinkedHashMap<>();
    configured.users().forEach(u -> associations.put(List.of(u.user(), u.account()), u));
    workload.forEach(j -> associations.putIfAbsent(List.of(userOf(j), accountOf(j)),
        new UserAssociation(userOf(j), accountOf(j), 1)));
    users = List.copyOf(associations.values());
    Map<String, Qos> q = new TreeMap<>(configured.qos());
    for (JobSpec j : workload) {
      if (j.qos() != null && !q.containsKey(j.qos())) {
        PurchaseRules.QosRule rule = setup.purchaseRules().qosRule(j.qos());
        q.put(j.qos(), new Qos(j.qos(), 0, Set.of(), Qos.normal().preemptMode(), null, null,
            rule == null || rule.capacity() == null ? Set.of() : rule.capacity().runsOn()));
      }
    }
    qos = Map.copyOf(q);
    budgets = new Budgets(setup.budgets(), accounts);
  }

  private static String accountOf(JobSpec spec) {
    return spec.account() == null ? ACCOUNT : spec.account();
  }

  private static String userOf(JobSpec spec) {
    return spec.user() == null ? USER : spec.user();
  }

  private void submit(long id, JobSpec spec, Instant now) {
    long minutes = spec.timeLimitMinutes();
    String account = accountOf(spec);
    String qosName = spec.qos() == null ? setup.accounting().defaultQos() : spec.qos();
    List<String> options = new ArrayList<>(List.of("-N", Integer.toString(spec.nodes()),
        "--gres=gpu:" + spec.gpusPerNode(), "-t", Long.toString(minutes), "-J", "sim-" + id, "-A", account,
        "--qos", qosName));
    if (spec.deadline() != null) {
      options.addAll(List.of("--deadline", "now+" + spec.deadline().toSeconds()));
    }
    if (spec.partition() != null) {
      options.addAll(List.of("-p", spec.partition()));
    }
    Job job = Job.pending(id, parser.parse("#!/bin/bash\nsrun python train.py\n", "sim.sh", options, now).request(),
        userOf(spec), account, qosName, now);
    SimJob j = new SimJob(job, spec);
    jobs.put(job.key(), j);
    allJobs.put(id, j);
    accountOfKey.put(job.key().toString(), account);
    changed = true;
    wake(now);
  }

  /** What the service does when a change may let a job start: asks for a cycle soon ({@link CycleWakeup}). */
  private void wake(Instant at) {
    if (wokenCycleAt == null) {
      wokenCycleAt = CycleWakeup.cycleAt(at, lastCycle);
    }
  }

  private void endDueJobs(Instant now) {
    while (!running.isEmpty() && !running.peek().endsAt.isAfter(now)) {
      SimJob j = running.poll();
      // The lower bound: this work on the cheapest spot node in force while it ran, for its share of
      // the node; none on a static partition, which bills nothing.
      PartitionSetup p = nodes.get(j.job.allocation().get(0).node()).partition;
      if (p.elastic()) {
        lowerBoundUsd += provider.cheapestSpotDollars(p.policy().instanceTypes(), j.endsAt.minus(j.runtime), j.endsAt)
            * j.job.gpusHeld() / p.nodes().get(0).gpus();
      }
      end(j, JobState.COMPLETED, j.endsAt);
      completed++;
      wake(j.endsAt); // the agent reports the batch script's exit, which wakes the service's scheduler
    }
  }

  private void end(SimJob j, JobState state, Instant at) {
    usage = usageMeter.ended(usage, j.job, at);
    jobs.remove(j.job.key());
    running.remove(j);
    for (GpuGrant g : j.job.allocation()) {
      free(nodes.get(g.node()), j.job.key(), at);
    }
    j.job = j.job.finished(state, state == JobState.COMPLETED ? 0 : null, at);
    j.endedAt = at;
    j.endState = state;
    lastEnd = at.isAfter(lastEnd) ? at : lastEnd;
    events.add(at(at) + " end " + j.job.key() + " " + state);
    changed = true;
  }

  /**
   * The job no longer holds the node: an up node with no job left is idle from {@code at}; a
   * powering-up one stays so (launched or not: the planner launches it, it boots, and is
   * suspended after SuspendTime, as in the controller).
   */
  private void free(SimNode n, JobKey key, Instant at) {
    unstrand(n, at);
    n.leave(key);
    CostSplit.Holding h = n.holds.remove(key);
    if (h != null) {
      heldBefore.computeIfAbsent(n.template.name(), k -> new ArrayList<>())
          .add(new CostSplit.Holding(h.job(), h.from(), at, h.share()));
    }
    if (n.holders.isEmpty() && n.up()) {
      n.state(NodeState.IDLE);
      n.idleSince = at;
    }
  }

  /** The node no longer waits, up, for a gang that did not run: its time so far was stranded. */
  private void unstrand(SimNode n, Instant at) {
    if (n.strandedSince != null) {
      strandedSeconds += Duration.between(n.strandedSince, at).toMillis() / 1000.0;
      n.strandedSince = null;
    }
  }

  private void runIfUp(SimJob j, Instant now) {
    for (GpuGrant g : j.job.allocation()) {
      if (!nodes.get(g.node()).up()) {
        return;
      }
    }
    j.job = j.job.started(j.job.key(), j.job.partition(), j.job.allocation(), now);
    running(j, now);
    events.add(at(now) + " run " + j.job.key());
  }

  /** The job has just started RUNNING. */
  private void running(SimJob j, Instant now) {
    j.endsAt = now.plus(j.remaining);
    j.firstRun = j.firstRun == null ? now : j.firstRun;
    running.add(j);
    for (GpuGrant g : j.job.allocation()) {
      SimNode n = nodes.get(g.node());
      n.strandedSince = null; // it ran: the wait was the gang assembling
      CostSplit.Holding h = n.holds.get(j.job.key());
      if (h != null && n.instance != null) {
        bootUsd += Duration.between(h.from(), now).toMillis() / 3_600_000.0 * h.share()
            * n.instance.offering().pricePerHour();
      }
    }
    if (j.requeuedAt != null) {
      restartWaitsMs.add(Duration.between(j.requeuedAt, now).toMillis());
      if (j.firstRestart) {
        firstRestartMs.add(Duration.between(j.requeuedAt, now).toMillis());
      }
      j.requeuedAt = null;
    }
  }

  // ---------------------------------------------------------------- boots

  private void boot(Instant now) {
    // A launched node whose call made no instance never boots: ResumeTimeout releases it.
    for (SimNode n : List.copyOf(watched.booting.values())) {
      Instant booted = provider.bootTime(n.instance.id());
      if (booted.isAfter(now)) {
        continue;
      }
      if (n.holders.isEmpty()) {
        n.state(NodeState.IDLE);
        n.idleSince = booted;
      } else {
        n.state(NodeState.ALLOCATED);
        n.strandedSince = booted;
      }
      changed = true;
      for (JobKey k : List.copyOf(n.holders)) {
        SimJob j = jobs.get(k);
        if (j.job.state() == JobState.CONFIGURING) {
          runIfUp(j, now);
        }
      }
    }
  }

  // ---------------------------------------------------------------- interruptions

  /**
   * Notices that are due go to the drain engine (the controller's own {@link DrainBook}), which
   * then stops the jobs that checkpointed or whose time is up, and gives up the machines whose
   * deadline has come and that no job holds any more.
   */
  private void interrupt(Instant now) {
    for (SimNode n : List.copyOf(watched.noticeComing.values())) {
      if (n.notice != null && n.instance != null && n.state != NodeState.DRAINING
          && !n.notice.noticedAt().isAfter(now)) {
        drains.notice(n.notice, now);
      }
    }
    drains.tick(now);
  }

  /** The run of a job as the drain sees it. */
  private static JobRun run(SimJob j) {
    boolean running = j.job.state() == JobState.RUNNING;
    return new JobRun(j.job.key(), j.job.restartCount(), j.job.partition(), running,
        running ? j.job.startTime() : null, j.job.gpusHeld());
  }

  /**
   * The drain engine's side in memory: the simulation's nodes and jobs, and its model of how the
   * jobs checkpoint ({@link InterruptionRules#jobs()}).
   */
  private final class MemoryDrains implements DrainLedger {
    private long records;

    @Override
    public NodeState nodeState(String node) {
      SimNode n = nodes.get(node);
      return n == null ? null : n.state;
    }

    @Override
    public Optional<String> nodeOfInstance(String instanceId) {
      return Optional.ofNullable(watched.byInstance.get(instanceId)).map(n -> n.template.name());
    }

    @Override
    public List<JobRun> runsOn(String node) {
      return nodes.get(node).holders.stream().map(k -> run(jobs.get(k))).toList();
    }

    @Override
    public Optional<JobRun> currentRun(JobKey job) {
      SimJob j = jobs.get(job);
      return j == null || !j.job.state().holdsResources() ? Optional.empty() : Optional.of(run(j));
    }

    @Override
    public RunStatus status(JobKey job, int restartCount) {
      SimJob j = jobs.get(job);
      if (j == null) {
        return new RunStatus(false, false, "ended before the drain stopped it");
      }
      if (j.job.restartCount() > restartCount) {
        return new RunStatus(false, true, "requeued");
      }
      return new RunStatus(j.job.state().holdsResources(), false, j.job.state().holdsResources() ? null
          : "ended " + j.job.state() + " before the drain stopped it");
    }

    @Override
    public DrainRules rules(String partition) {
      return new DrainRules(rules.margin(), rules.maxRestarts(), rules.restartBackoff(), Duration.ZERO);
    }

    @Override
    public int earlierInterruptions(JobKey job, Instant noticedAt) {
      return jobs.get(job).interruptions;
    }

    /** The newest checkpoint written by now, holding the state of when its write began. */
    @Override
    public Optional<Checkpoint> latestCheckpoint(JobRun run) {
      SimJob j = jobs.get(run.job());
      if (j == null || run.started() == null) {
        return Optional.empty();
      }
      Instant saved = rules.jobs().savedAt(run.started(), j.signalledAt, clock.instant());
      return saved.isAfter(run.started())
          ? Optional.of(new Checkpoint(Duration.between(start, saved).toSeconds(), "sim", saved))
          : Optional.empty();
    }

    @Override
    public void drainNode(String node, String why) {
      SimNode n = nodes.get(node);
      Instant now = clock.instant();
      interruptions++;
      endIdle(n, now);
      n.state(NodeState.DRAINING);
      changed = true;
      events.add(at(now) + " notice " + node + " " + n.instance.offering().key() + ": machine goes at "
          + at(n.notice.deadline()));
    }

    @Override
    public void offeringShort(String node, String why) {
      Instant now = clock.instant();
      fleet.spotReclaimed(node, why, now);
      events.add(at(now) + " offering " + nodes.get(node).instance.offering().key() + " unavailable until "
          + at(now.plus(nodes.get(node).partition.policy().unavailableFor())) + ": interrupted");
    }

    @Override
    public void markDraining(JobRun run, DrainMark mark) {
      // a simulated batch script does not exit of the signal: nothing to tell apart
    }

    @Override
    public void unmarkDraining(JobKey job, int restartCount) {
      // as above
    }

    @Override
    public void signal(JobRun run, String why) {
      SimJob j = jobs.get(run.job());
      if (j.signalledAt == null) {
        j.signalledAt = clock.instant();
      }
    }

    /** Stops the job: what it did since its newest checkpoint is lost; it is requeued as the decision says. */
    @Override
    public RunStatus interrupt(JobRun run, String node, String why, int earlierInterruptions, double lostGpuSeconds) {
      SimJob j = jobs.get(run.job());
      Instant now = clock.instant();
      String what;
      if (run.running()) {
        Instant saved = rules.jobs().savedAt(run.started(), j.signalledAt, now);
        Duration kept = Duration.between(run.started(), saved);
        j.remaining = j.remaining.minus(kept);
        what = String.format(Locale.ROOT, "stopped, %s kept, %.0f GPU-s lost", kept, lostGpuSeconds);
      } else {
        what = "node " + node + " interrupted before the job ran";
        // Its up nodes waited for a boot the cloud then cut short: lost to the reclaim, as lost
        // work is, not billed while the gang could not run (it is requeued now, they are free).
        for (GpuGrant g : j.job.allocation()) {
          SimNode n = nodes.get(g.node());
          if (n.strandedSince != null) {
            bootWaitLostSeconds += Duration.between(n.strandedSince, now).toMillis() / 1000.0;
            n.strandedSince = null;
          }
        }
      }
      RequeueDecision d = RequeueDecision.afterInterruption(false, earlierInterruptions, false,
          rules(run.partition()), now);
      requeue(j, now, d, what);
      return new RunStatus(false, true, d.outcome() == RequeueDecision.Outcome.HOLD ? "held" : "requeued");
    }

    @Override
    public void requeueCheckpointed(JobRun run, String why, boolean hold) {
      SimJob j = jobs.get(run.job());
      Instant now = clock.instant();
      Job requeued = j.job.requeued();
      backToQueue(j, hold ? requeued.withRequest(requeued.request().withHold(true)) : requeued, now);
      events.add(at(now) + " requeued " + run.job() + ": " + why);
    }

    @Override
    public void preempted(JobRun run, String why, boolean requeue) {
      SimJob j = jobs.get(run.job());
      Instant now = clock.instant();
      if (!requeue) {
        end(j, JobState.PREEMPTED, now);
        return;
      }
      backToQueue(j, j.job.requeued(), now);
      events.add(at(now) + " requeue " + run.job() + ": " + why);
    }

    @Override
    public void releaseMachine(String node, String why) {
      fleet.machineTaken(node, "spot interruption: the machine is gone", clock.instant());
    }

    @Override
    public long record(String node, Interruption notice, JobKey job, String outcome, Instant now) {
      SimNode n = nodes.get(node);
      if (n != null && n.instance != null) {
        usdPerGpuSecondOfRecord.put(records + 1, n.instance.offering().pricePerHour() / 3600 / n.template.gpus());
      }
      return ++records;
    }

    @Override
    public void recordHandled(long recordId, String outcome, Double lost, Instant now) {
      Double price = usdPerGpuSecondOfRecord.remove(recordId);
      if (lost != null) {
        lostGpuSeconds += lost;
        reworkUsd += price == null ? 0 : lost * price;
      }
    }

    @Override
    public void note(String message) {
      // the event log has what the figures need
    }

    @Override
    public void failed(String step, RuntimeException error) {
      throw error; // memory does not fail: this is a bug
    }
  }

  /**
   * Back to the queue whole as the {@link RequeueDecision} says: same id, one more restart, age
   * kept; maybe not before the backoff; held past max-restarts.
   */
  private void requeue(SimJob j, Instant now, RequeueDecision d, String why) {
    JobKey k = j.job.key();
    int restart = j.job.restartCount() + 1;
    j.interruptions = d.interruption();
    String next;
    if (d.outcome() == RequeueDecision.Outcome.HOLD) {
      held++;
      next = "held: interrupted more often than max-restarts (" + rules.maxRestarts() + ")";
    } else if (d.notBefore() == null) {
      next = "requeued";
    } else {
      wakeups.add(d.notBefore());
      next = "requeued, not before " + at(d.notBefore());
    }
    backToQueue(j, d.applyTo(j.job.requeued()), now);
    j.requeuedAt = d.outcome() == RequeueDecision.Outcome.HOLD ? null : now;
    j.firstRestart = d.interruption() == 1;
    interruptionRequeues++;
    events.add(at(now) + " interrupted " + k + ": " + why + "; " + next + " (restart " + restart + ")");
  }

  /** The job leaves its nodes (an up node with no job left is idle) and waits in the queue as {@code requeued}. */
  private void backToQueue(SimJob j, Job requeued, Instant now) {
    usage = usageMeter.ended(usage, j.job, now);
    running.remove(j);
    for (GpuGrant g : j.job.allocation()) {
      free(nodes.get(g.node()), j.job.key(), now);
    }
    j.job = requeued;
    j.signalledAt = null;
    j.awaitingCall.clear();
    j.measureFrom = null;
    changed = true;
  }

  // ---------------------------------------------------------------- scheduling

  private void cycle(Instant now) {
    changed = false;
    wokenCycleAt = null; // this cycle sees every change a pending wake was for
    startedThisCycle = 0;
    lastCycle = now;
    cycles++;
    List<Node> snapshotNodes = new ArrayList<>(nodes.size());
    for (SimNode n : inNameOrder) {
      snapshotNodes.add(n.scheduled());
    }
    List<Job> snapshotJobs = new ArrayList<>(jobs.size());
    for (SimJob j : jobs.values()) {
      snapshotJobs.add(j.job);
    }
    usage = usageMeter.charge(usage, snapshotJobs, now);
    ClusterSnapshot snapshot = new ClusterSnapshot(snapshotNodes, partitions, qos, accounts, users, snapshotJobs,
        usage);
    if (!budgets.isEmpty()) {
      if (lastBudget == null || !now.isBefore(lastBudget.plus(BUDGET_INTERVAL))) {
        refreshBudgets(now);
        lastBudget = now;
      }
      snapshot = snapshot.withBudgets(limits);
    }
    PlanApplication.apply(scheduler.cycle(snapshot, now), new PlanApplication.Ledger() {
      @Override
      public Job job(JobKey key) {
        SimJob j = jobs.get(key);
        return j == null ? null : j.job;
      }

      @Override
      public boolean usable(String node) {
        SimNode n = nodes.get(node);
        return n.up() || n.state.resumable();
      }

      @Override
      public void eligible(Action.Eligible e) {
        SimJob j = jobs.get(e.job());
        j.job = j.job.eligibleSince(e.since());
      }

      @Override
      public void start(Action.Start s) {
        ElasticSimulation.this.start(s, now);
      }

      @Override
      public void waiting(Action.Wait w) {
        SimJob j = jobs.get(w.job());
        if (j != null) {
          j.pendingReason = w.reason().slurmName();
        }
      }

      @Override
      public void timeout(Job job) {
        end(jobs.get(job.key()), JobState.TIMEOUT, now);
      }

      @Override
      public void limitSignal(Job job, Action.LimitSignal signal) {
        // A simulated job runs for its runtime whatever it is sent: nothing to deliver.
      }

      @Override
      public void preempt(Job job, boolean requeue, String why, Duration grace) {
        // As in the controller, the drain signals it and stops it within its grace time.
        SimJob j = jobs.get(job.key());
        j.job = j.job.preempting(now);
        drains.preempt(job.key(), requeue, why, grace, now);
      }
    });
    for (SimJob j : jobs.values()) {
      if (j.job.state() == JobState.PENDING) {
        j.seenByCycle = true;
      }
    }
    if (startedThisCycle > 0) {
      wake(now); // as the service's ticker: more may start behind the jobs just started
    }
  }

  private void start(Action.Start s, Instant now) {
    SimJob j = jobs.get(s.job());
    if (j == null || j.job.state() != JobState.PENDING) {
      return;
    }
    j.awaitingCall.clear();
    startedThisCycle++;
    j.firstStart = j.firstStart == null ? now : j.firstStart;
    j.starts.add(startRecord(j, s, now));
    boolean allUp = true;
    for (GpuGrant g : s.grants()) {
      SimNode n = nodes.get(g.node());
      if (n.state == NodeState.CLOUD) {
        n.state(NodeState.POWERING_UP);
      }
      if (n.state == NodeState.POWERING_UP && n.instance == null) {
        j.awaitingCall.add(n.template.name());
      }
      if (n.up()) {
        endIdle(n, now);
        n.state(NodeState.ALLOCATED);
        n.strandedSince = now;
      } else {
        allUp = false;
      }
      n.hold(j.job.key());
      n.holds.put(j.job.key(), new CostSplit.Holding(j.job.key().toString(), now, now,
          CostSplit.share(g.gpuIndices().size(), n.template.gpus(), g.cpus(), n.template.cpus(), j.job.exclusive())));
    }
    if (allUp) {
      j.job = j.job.started(s.job(), s.partition(), s.grants(), now);
      running(j, now);
      events.add(at(now) + " run " + j.job.key() + " on up nodes");
      return;
    }
    j.job = j.job.configuring(s.job(), s.partition(), s.grants());
    j.measureFrom = j.awaitingCall.isEmpty() ? null : j.seenByCycle ? now : j.job.submitTime();
    events.add(at(now) + " allocate " + j.job.key() + " " + s.grants().size() + " nodes, "
        + j.awaitingCall.size() + " to launch");
  }

  // ---------------------------------------------------------------- money rules

  /**
   * Spend added up as the controller's BudgetWatch does (core {@link Budgets} over each account's
   * jobs' charges this period, here from {@link Charges} over the holds so far), and what the
   * budgets still allow.
   */
  private void refreshBudgets(Instant now) {
    List<Budgets.Standing> standings = budgets.standings(now, ZoneOffset.UTC, since -> spendByAccount(since, now));
    limits = budgets.limits(standings, worstUsdPerGpuHour());
    for (Budgets.Standing st : standings) {
      budgetSamples.add(new BudgetSample(Duration.between(start, now), st.budget().account(), st.spentUsd(),
          st.budget().softUsd(), st.budget().hardUsd()));
    }
  }

  /**
   * What each account's own jobs cost from {@code since} until {@code now}. Kept up to date per
   * {@code since} by adding what each new window billed: a bill split over two adjacent windows
   * is the bill split over both, and splitting only the new window keeps a long run from adding
   * up its whole past at every scheduler cycle.
   */
  private Map<String, Double> spendByAccount(Instant since, Instant now) {
    SpendSoFar s = spendFrom.computeIfAbsent(since, SpendSoFar::new);
    if (now.isAfter(s.until)) {
      charges(s.until, now).jobs().forEach((key, c) -> s.byAccount.merge(accountOfKey.get(key), c.usd(), Double::sum));
      s.until = now;
    }
    return new TreeMap<>(s.byAccount);
  }

  /** Each account's spend from one instant up to {@code until}. */
  private static final class SpendSoFar {
    Instant until;
    final Map<String, Double> byAccount = new TreeMap<>();

    SpendSoFar(Instant since) {
      this.until = since;
    }
  }

  /**
   * The most a GPU-hour may cost in each elastic partition now by capacity type, among the prices
   * in force the fleet listed for the offerings its policy may buy; infinite while none is known
   * (no budgeted job starts blind), none for a static partition, as the controller's partition prices.
   */
  private Map<String, Map<CapacityType, Double>> worstUsdPerGpuHour() {
    Map<String, Map<CapacityType, Double>> out = new TreeMap<>();
    for (PartitionSetup p : setup.partitions()) {
      int gpus = p.nodes().stream().mapToInt(Node::gpus).max().orElse(0);
      if (p.elastic() && gpus > 0) {
        out.put(p.partition().name(), p.policy().withCaps(p.policy().caps(), gpus).worstPerGpuHour(fleet.prices()));
      }
    }
    return out;
  }

  private Sample sample(Instant now) {
    int queued = 0;
    int gpus = 0;
    for (SimJob j : jobs.values()) {
      if (j.job.state() == JobState.PENDING) {
        queued++;
      } else if (j.job.state() == JobState.RUNNING) {
        gpus += j.job.allocation().stream().mapToInt(g -> g.gpuIndices().size()).sum();
      }
    }
    int spot = 0;
    int onDemand = 0;
    for (SimNode n : nodes.values()) {
      if (n.instance != null) {
        spot += n.instance.offering().capacityType() == CapacityType.SPOT ? 1 : 0;
        onDemand += n.instance.offering().capacityType() == CapacityType.ON_DEMAND ? 1 : 0;
      }
    }
    return new Sample(Duration.between(start, now), queued, gpus, spot, onDemand, spendByAccount(start, now));
  }

  /**
   * Whether spend should be added up again although nothing else changed: some node is billed,
   * or a budget period has begun, and {@link #BUDGET_INTERVAL} has passed since spend was last
   * added up.
   */
  private boolean budgetDue(Instant now) {
    if (budgets.isEmpty() || lastBudget != null && now.isBefore(lastBudget.plus(BUDGET_INTERVAL))) {
      return false;
    }
    return !watched.notCloud.isEmpty()
        || lastBudget != null && setup.budgets().stream().anyMatch(b ->
            b.period().start(now, ZoneOffset.UTC).isAfter(lastBudget));
  }

  private StartRecord startRecord(SimJob j, Action.Start s, Instant now) {
    int gpus = s.grants().stream().mapToInt(g -> g.gpuIndices().size()).sum();
    long limitSeconds = s.endLimit() == null ? Long.MAX_VALUE : Duration.between(now, s.endLimit()).toSeconds();
    Qos jobQos = j.job.qos() == null ? null : qos.get(j.job.qos());
    double worst = limits.worstCostUsd(s.partition(), limits.runsOn(j.job.account(), jobQos), gpus, limitSeconds);
    Budget budget = setup.budgets().stream().filter(b -> b.account().equals(j.job.account())).findFirst().orElse(null);
    double spent = 0;
    for (int i = budgetSamples.size() - 1; budget != null && i >= 0; i--) {
      BudgetSample b = budgetSamples.get(i);
      if (b.account().equals(budget.account())) {
        spent = b.spentUsd();
        break;
      }
    }
    return new StartRecord(Duration.between(start, now), spent, budget == null ? null : budget.hardUsd(), worst);
  }

  /** Finance's rules for a job holding nodes, from what the simulation knows of it. */
  private JobPurchase purchase(SimJob j, Instant now) {
    Checkpointing c = rules.jobs();
    Duration changeover = provider.bootLatency(); // restore: none in the simulation
    Duration redo = c.honoursSignal() || c.interval() == null ? Duration.ZERO : c.interval().dividedBy(2);
    double reworkHours = (changeover.toMillis() + redo.toMillis()) / 3_600_000.0;
    Integer limitMinutes = j.job.request().timing().timeLimitMinutes();
    Duration work = limitMinutes == null ? j.runtime : Duration.ofMinutes(limitMinutes);
    PurchaseRules.JobFacts facts = new PurchaseRules.JobFacts(j.job.key().toString(), j.job.account(), j.job.qos(),
        j.job.submitTime(), j.job.request().timing().deadline(), work, j.done(c, now), changeover, reworkHours,
        rules.maxRestarts() - j.interruptions);
    return setup.purchaseRules().forJob(facts, now, limits.spotOnly());
  }

  // ---------------------------------------------------------------- power

  /**
   * The fleet engine's side in memory: what the controller's state writer and database do for
   * it, done on the simulation's nodes and jobs, with the run's figures and event log.
   */
  private final class MemoryFleet implements FleetLedger {
    @Override
    public List<FleetNode> nodes() {
      List<FleetNode> out = new ArrayList<>(nodes.size());
      for (SimNode n : inNameOrder) {
        if (n.elastic()) { // the fleet engine's nodes are the elastic partitions'
          out.add(n.fleetNode());
        }
      }
      return out;
    }

    @Override
    public NodeLaunch nodeLaunch(String node) {
      return new NodeLaunch(nodes.get(node).template.withState(NodeState.POWERING_UP), "http://controller.sim:6820",
          "sim-token-" + node);
    }

    @Override
    public void launchIntended(PowerAction.Launch launch, Instant now) {
      // memory does not crash: nothing to reconcile
    }

    @Override
    public void launchEnded(PowerAction.Launch l, List<Instance> made, String failure, Instant now) {
      if (failure != null) {
        events.add(at(now) + " launch " + l.placementGroup() + " " + l.nodes().size() + " nodes "
            + l.offering().key() + " failed " + failure.substring(0, failure.indexOf(':')));
        return;
      }
      if (l.offering().capacityType() == CapacityType.SPOT) {
        spotNodesLaunched += made.size();
      }
      Set<String> holders = new TreeSet<>();
      for (String node : l.nodes()) {
        nodes.get(node).holders.forEach(k -> holders.add(accountOfKey.get(k.toString())));
      }
      launchRecords.add(new LaunchRecord(Duration.between(start, now), made.size(), l.offering().capacityType(),
          holders));
      events.add(at(now) + " launch " + l.placementGroup() + " " + made.size() + " nodes " + l.offering().key());
    }

    @Override
    public void instanceMade(Instance i, Instant now) {
      SimNode n = nodes.get(i.nodeName());
      n.machine(i, provider.interruption(i.id()));
      for (JobKey k : n.holders) {
        SimJob j = jobs.get(k);
        if (j.awaitingCall.remove(n.template.name()) && j.awaitingCall.isEmpty() && j.measureFrom != null) {
          launchWaitsMs.add(Duration.between(j.measureFrom, now).toMillis());
          jobsLaunchedFor.add(k);
          j.measureFrom = null;
        }
      }
    }

    @Override
    public Optional<Instance> instanceOf(String node) {
      return Optional.ofNullable(nodes.get(node).instance);
    }

    @Override
    public void instanceGone(String node, Instance instance, Instant now) {
      SimNode n = nodes.get(node);
      unstrand(n, now);
      n.machine(null, null);
    }

    @Override
    public void resume(String node, String reason) {
      SimNode n = nodes.get(node);
      if (n.state == NodeState.CLOUD) {
        n.state(NodeState.POWERING_UP);
      }
    }

    @Override
    public void move(String node, String reason) {
      SimNode n = nodes.get(node);
      endIdle(n, clock.instant());
      unstrand(n, clock.instant()); // its gang did not run on it: the wait so far was for nothing
      n.state(NodeState.POWERING_UP);
      events.add(at(clock.instant()) + " move " + node + ": " + reason);
    }

    @Override
    public boolean beginPowerDown(String node, String reason) {
      SimNode n = nodes.get(node);
      if (n.state != NodeState.IDLE || !n.holders.isEmpty()) {
        return false;
      }
      endIdle(n, clock.instant());
      n.state(NodeState.POWERING_DOWN);
      events.add(at(clock.instant()) + " suspend " + node);
      return true;
    }

    @Override
    public void poweredDown(List<String> names, String reason) {
      for (String name : names) {
        SimNode n = nodes.get(name);
        // A released node is usable again: worth a cycle. (A suspended one was usable already.)
        changed |= n.state == NodeState.DOWN;
        n.powerDown();
        events.add(at(clock.instant()) + " cloud " + name + ": " + reason);
      }
    }

    /**
     * DOWN, the jobs holding the nodes requeued (their other nodes freed, and left as they are: up,
     * or powering up).
     */
    @Override
    public void release(List<String> names, String reason) {
      Instant now = clock.instant();
      Set<JobKey> requeue = new TreeSet<>();
      for (String name : names) {
        requeue.addAll(nodes.get(name).holders);
      }
      for (String name : names) {
        SimNode n = nodes.get(name);
        endIdle(n, now);
        n.state(NodeState.DOWN);
      }
      for (JobKey k : requeue) {
        SimJob j = jobs.get(k);
        backToQueue(j, j.job.requeued(), now);
        requeues++;
        events.add(at(now) + " requeue " + k + ": " + reason);
      }
      events.add(at(now) + " release " + names.size() + " nodes: " + reason);
      changed = true;
    }

    @Override
    public void waiting(List<String> names, String reason) {
      // no pending reasons in the simulation's figures
    }

    @Override
    public void warn(String message) {
      events.add(at(clock.instant()) + " warning: " + message);
    }

    @Override
    public void priceChanged(PriceSeries.Change change) {
      // The series is the fleet engine's own; a simulation has nothing to outlive. But prices
      // listed (or changed) change what a job may cost at worst: worth a cycle when budgets apply.
      changed |= !budgets.isEmpty();
    }

    /** The rules of the jobs holding nodes that wait for a launch call, by job key, as the controller gives them. */
    @Override
    public Map<String, JobPurchase> purchases() {
      Instant now = clock.instant();
      Map<String, JobPurchase> out = new TreeMap<>();
      for (SimNode n : watched.awaitingCall.values()) {
        for (JobKey k : n.holders) {
          out.computeIfAbsent(k.toString(), key -> purchase(jobs.get(k), now));
        }
      }
      return out;
    }
  }

  private void endIdle(SimNode n, Instant now) {
    if (n.idleSince != null && n.elastic()) {
      idleSeconds += Duration.between(n.idleSince, now).toMillis() / 1000.0;
    }
    n.idleSince = null;
  }

  // ---------------------------------------------------------------- time

  /** The next tick at which something can happen; null when nothing can. */
  private Instant next(Instant now, Instant nextSubmission) {
    Instant next = nextSubmission;
    if (!running.isEmpty()) {
      next = min(next, running.peek().endsAt);
    }
    Instant fleetNext = fleet.nextDecision(now);
    if (fleetNext != null) {
      next = min(next, fleetNext.isAfter(now) ? fleetNext : now.plus(setup.tick()));
    }
    for (SimNode n : watched.booting.values()) {
      next = min(next, provider.bootTime(n.instance.id()));
    }
    for (SimNode n : watched.draining.values()) {
      next = min(next, n.notice.deadline());
    }
    for (SimNode n : watched.noticeComing.values()) {
      next = min(next, n.notice.noticedAt());
    }
    Instant drainNext = drains.nextDecision();
    if (drainNext != null) {
      next = min(next, drainNext);
    }
    for (SimJob j : running) {
      Instant written = j.signalledAt == null ? null : checkpointWritten(j, now);
      if (written != null) {
        next = min(next, written);
      }
    }
    if (!wakeups.isEmpty()) {
      next = min(next, wakeups.first());
    }
    if (changed && lastCycle != null) {
      next = min(next, lastCycle.plus(setup.schedulerInterval()));
    }
    if (wokenCycleAt != null) {
      next = min(next, wokenCycleAt);
    }
    if (jobs.size() > running.size() + held) {
      // Jobs wait, perhaps for their budget: a new budget period may let them start, as the
      // controller's budget watch would see.
      for (Budget b : setup.budgets()) {
        next = min(next, b.period().next(now, ZoneOffset.UTC));
      }
    }
    if (!watched.notCloud.isEmpty()) {
      // Machines are billed: the fleet lists the offerings when a price changes, as the controller's would.
      Instant learnt = provider.nextPriceLearnt(now);
      next = learnt == null ? next : min(next, learnt);
    }
    if (!budgets.isEmpty() && lastBudget != null && !watched.notCloud.isEmpty()) {
      Instant due = lastBudget.plus(BUDGET_INTERVAL);
      Instant cycleAllowed = lastCycle == null ? due : lastCycle.plus(setup.schedulerInterval());
      next = min(next, due.isAfter(cycleAllowed) ? due : cycleAllowed);
    }
    if (next == null) {
      return null;
    }
    long tickMs = setup.tick().toMillis();
    long offset = Duration.between(start, next).toMillis();
    long ticks = Math.max(Duration.between(start, now).toMillis() / tickMs + 1, (offset + tickMs - 1) / tickMs);
    return start.plusMillis(ticks * tickMs);
  }

  /**
   * When the next checkpoint of a signalled job is written (after {@code now}): the one it writes
   * on the signal, if it honours it, or its next interval one (the drain stops it then); null for none.
   */
  private Instant checkpointWritten(SimJob j, Instant now) {
    Checkpointing c = rules.jobs();
    Instant next = null;
    if (c.honoursSignal() && j.signalledAt.plus(c.writeTime()).isAfter(now)) {
      next = j.signalledAt.plus(c.writeTime());
    }
    if (c.interval() != null) {
      long done = Duration.between(j.job.startTime(), now).minus(c.writeTime()).toMillis();
      long k = Math.max(0, Math.floorDiv(done, c.interval().toMillis()) + 1);
      next = min(next, j.job.startTime().plus(c.interval().multipliedBy(k)).plus(c.writeTime()));
    }
    return next;
  }

  private static List<Long> sorted(List<Long> values) {
    List<Long> out = new ArrayList<>(values);
    out.sort(Comparator.naturalOrder());
    return out;
  }

  private static Instant min(Instant a, Instant b) {
    return a == null || b.isBefore(a) ? b : a;
  }

  private String at(Instant t) {
    return Duration.between(start, t).toString();
  }

  // ---------------------------------------------------------------- result

  private Result result(int submitted, Instant now, boolean finished) {
    for (SimNode n : nodes.values()) {
      endIdle(n, now);
    }
    int orphans = 0;
    for (Instance i : provider.list(setup.cluster())) {
      SimNode holder = nodes.get(i.nodeName());
      if (holder == null || holder.instance == null || !holder.instance.id().equals(i.id())) {
        orphans++;
        events.add(at(now) + " orphan " + i.id() + " (" + i.nodeName() + ")");
      }
    }
    List<Long> waits = sorted(launchWaitsMs);
    long median = lowerMedian(waits);
    long max = waits.isEmpty() ? 0 : waits.get(waits.size() - 1);
    List<Long> restarts = sorted(restartWaitsMs);
    Charges.Result charges = charges(Instant.EPOCH, now); // the whole run's bill, split once
    double gpuSeconds = 0;
    for (SimulatedProvider.Billing b : provider.billings()) {
      gpuSeconds += Duration.between(b.launched(), b.ended()).toMillis() / 1000.0 * nodes.get(b.node()).template.gpus();
    }
    return new Result(submitted, completed, provider.launchCalls(), provider.failedLaunchCalls(),
        provider.instancesLaunched(), spotNodesLaunched, provider.partialGangInstances(), orphans,
        jobsLaunchedFor.size(), median, max, waits, idleSeconds / 3600, provider.instanceSeconds() / 3600,
        gpuSeconds / 3600, provider.billedDollars(),
        requeues, cycles, Duration.between(start, lastEnd), finished, events, interruptions, interruptionRequeues, held,
        lostGpuSeconds / 3600, restarts, provider.spotInstanceSeconds() / 3600, sorted(firstRestartMs),
        strandedSeconds / 3600, bootWaitLostSeconds / 3600, money(charges), outcomes(charges, now),
        budgetSamples, launchRecords, samples);
  }

  private List<JobOutcome> outcomes(Charges.Result bill, Instant now) {
    Map<String, Charges.JobCharge> charges = bill.jobs();
    List<JobOutcome> out = new ArrayList<>(allJobs.size());
    for (Map.Entry<Long, SimJob> e : allJobs.entrySet()) {
      SimJob j = e.getValue();
      Charges.JobCharge c = charges.get(j.job.key().toString());
      Instant submitted = j.job.submitTime();
      String partition = j.job.partition() != null ? j.job.partition() : j.spec.partition() != null ? j.spec.partition()
          : partitions.stream().filter(Partition::isDefault).map(Partition::name).findFirst().orElse(null);
      out.add(new JobOutcome(e.getKey(), j.job.account(), partition, j.spec.nodes() * j.spec.gpusPerNode(),
          Duration.between(start, submitted),
          j.spec.deadline() == null ? null : Duration.between(start, submitted.plus(j.spec.deadline())),
          j.firstStart == null ? null : Duration.between(start, j.firstStart),
          j.firstRun == null ? null : Duration.between(start, j.firstRun),
          j.endedAt == null ? null : Duration.between(start, j.endedAt), j.endState, j.pendingReason,
          c == null ? 0 : c.usd(), c == null ? Set.of() : c.capacityTypes(), j.starts));
    }
    return out;
  }

  /**
   * What the instances billed in [{@code from}, {@code now}), split among the holds on their nodes
   * (open ones end now). Only the bills and holds that overlap the window are split.
   */
  private Charges.Result charges(Instant from, Instant now) {
    List<Charges.Billing> bills = new ArrayList<>();
    for (SimulatedProvider.Billing b : provider.billings()) {
      if (b.launched().isBefore(now) && (b.ended() == null || b.ended().isAfter(from))) {
        bills.add(new Charges.Billing(null, b.node(), b.offering(), nodes.get(b.node()).template.gpus(), b.launched(),
            b.ended()));
      }
    }
    Map<String, List<CostSplit.Holding>> holds = new TreeMap<>();
    heldBefore.forEach((node, hs) -> hs.stream().filter(h -> h.to().isAfter(from) && h.from().isBefore(now))
        .forEach(h -> holds.computeIfAbsent(node, k -> new ArrayList<>()).add(h)));
    nodes.forEach((name, n) -> n.holds.values().stream().filter(h -> h.from().isBefore(now))
        .forEach(h -> holds.computeIfAbsent(name, k -> new ArrayList<>())
            .add(new CostSplit.Holding(h.job(), h.from(), now, h.share()))));
    return Charges.of(bills, holds, fleet.prices(), from, now);
  }

  /** The run's money from its whole bill split among the holds ({@code r}). */
  private Money money(Charges.Result r) {
    double unfinished = 0;
    for (SimJob j : allJobs.values()) {
      Charges.JobCharge c = r.jobs().get(j.job.key().toString());
      unfinished += c != null && j.endState != JobState.COMPLETED ? c.usd() : 0;
    }
    return new Money(r.billed(), r.jobsUsd(), r.onDemandJobsUsd(), r.overhead(),
        lowerBoundUsd, bootUsd, reworkUsd, unfinished);
  }
}
