package io.squall.core.schedule;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.Node;
import io.squall.core.model.Partition;
import io.squall.core.model.Qos;
import io.squall.core.model.Reservation;
import io.squall.core.model.UsageLedger;
import io.squall.core.money.BudgetLimits;
import io.squall.core.priority.FairShare;
import io.squall.core.provider.CapacityType;
import io.squall.core.priority.MultifactorPriority;
import io.squall.core.sbatch.ArraySpec;
import io.squall.core.sbatch.Constraint;
import io.squall.core.sbatch.JobRequest;
import io.squall.core.sbatch.SignalSpec;
import io.squall.core.sbatch.TimeLimit;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The working state of one scheduling cycle; see the package documentation for the order of work. */
final class Cycle {
  private static final int[] NONE = new int[0];
  private static final long NEVER = Long.MAX_VALUE;
  private final SchedulerConfig config;
  private final ClusterSnapshot snapshot;
  private final Instant now;
  private final long nowSec;
  private final NodeTable table;
  private final int[] groupOf;
  private final int groupCount;
  private final GangPlacer placer;
  private final Map<String, Partition> partitions = new LinkedHashMap<>();
  private final Map<String, int[]> partitionNodes = new HashMap<>();
  private final Map<String, Integer> largestGpus = new HashMap<>();
  /** Partitions with nodes that are powered down or powering up: elastic capacity. */
  private final Set<String> hasResumable = new HashSet<>();
  private final List<List<Job>> runningOn = new ArrayList<>();
  /** Past usage decayed to now: fair-share and GrpTRESMins count it. */
  private final UsageLedger usage;
  /** QOS and association limits, counted over running jobs and those started in this cycle. */
  private final AccountingPolicy limits;
  /** Dollars running jobs and jobs started in this cycle may still cost at worst, by budgeted account. */
  private final Map<String, Double> budgetCommitted = new HashMap<>();
  private final Map<Long, Integer> arrayTasksRunning = new HashMap<>();
  private final Map<EligibleKey, int[]> eligibleCache = new HashMap<>();
  /** Shapes that failed to start now: resources only shrink within a cycle, so they fail again. */
  private final Map<FailKey, PendingReason> failedNow = new HashMap<>();
  private final Map<FailKey, Boolean> holdsShape = new HashMap<>();
  /**
   * The earliest start at which each attempt may still be reserved ({@link #NEVER}: none within
   * bf_window). A cycle only ever adds bookings, so a gang fits at ever fewer times: a search for
   * the same attempt resumes where the last one found its start, and one that found none is not
   * repeated (the many alike jobs of a queue would otherwise walk the same times again).
   */
  private final Map<FailKey, Long> reservableFrom = new HashMap<>();
  private final List<Action> actions = new ArrayList<>();
  /** Candidates that wait for Resources or Priority: those may preempt. */
  private final Set<JobKey> blockedByResources = new HashSet<>();
  /** Advanced reservations by name. */
  private final Map<String, Reservation> reservations = new HashMap<>();
  private Partition defaultPartition;
  private int reservationsTried;
  private DependencyCheck dependencies;

  Cycle(SchedulerConfig config, ClusterSnapshot snapshot, Instant now) {
    this.config = config;
    this.snapshot = snapshot;
    this.now = now;
    this.usage = snapshot.usage().decayedTo(now);
    this.limits = new AccountingPolicy(snapshot.qos(), snapshot.accounts(), usage);
    this.nowSec = now.getEpochSecond();
    List<Node> nodes = new ArrayList<>(snapshot.nodes());
    nodes.sort(Comparator.comparing(Node::name));
    this.table = new NodeTable(nodes, nowSec);
    // Groups numbered in name order; their names gathered unsorted first (a cycle sees every node).
    Map<String, Integer> groups = new HashMap<>();
    for (Node n : nodes) {
      groups.putIfAbsent(groupName(n), 0);
    }
    List<String> groupNames = new ArrayList<>(groups.keySet());
    groupNames.sort(Comparator.naturalOrder());
    for (int g = 0; g < groupNames.size(); g++) {
      groups.put(groupNames.get(g), g);
    }
    this.groupCount = groups.size();
    this.groupOf = new int[nodes.size()];
    for (int i = 0; i < nodes.size(); i++) {
      groupOf[i] = groups.get(groupName(nodes.get(i)));
      runningOn.add(new ArrayList<>(2));
    }
    this.placer = new GangPlacer(table, groupOf, groupCount, config.backfill());
    // Each advanced reservation holds its nodes over its window: other jobs must end before it opens.
    for (Reservation r : snapshot.reservations()) {
      reservations.put(r.name(), r);
      long end = r.end().getEpochSecond();
      if (end <= nowSec) {
        continue;
      }
      for (String name : r.nodes()) {
        Integer i = table.indexOf(name);
        if (i != null) {
          table.addWindow(i, new NodeTable.Window(r.start().getEpochSecond(), end, r.name(), r.has(Reservation.Flag.MAINT)));
        }
      }
    }
    for (Partition p : snapshot.partitions()) {
      partitions.put(p.name(), p);
      if (defaultPartition == null && p.isDefault()) {
        defaultPartition = p;
      }
      // By group, then by index: each as one long (group in the high half), sorted without boxing.
      long[] byGroup = new long[p.nodes().size()];
      int count = 0;
      int largest = 0;
      for (String name : p.nodes()) {
        Integer i = table.indexOf(name);
        if (i != null) {
          byGroup[count++] = (long) groupOf[i] << 32 | i;
          largest = Math.max(largest, nodes.get(i).gpus());
          if (nodes.get(i).state().resumable()) {
            hasResumable.add(p.name());
          }
        }
      }
      Arrays.sort(byGroup, 0, count);
      int[] idx = new int[count];
      for (int k = 0; k < count; k++) {
        idx[k] = (int) byGroup[k];
      }
      partitionNodes.put(p.name(), idx);
      largestGpus.put(p.name(), largest);
    }
  }

  private static String groupName(Node n) {
    return n.placementGroup() == null ? "" : n.placementGroup();
  }

  Plan run() {
    List<Job> pending = new ArrayList<>();
    for (Job job : snapshot.jobs()) {
      if (job.state().holdsResources()) {
        holdRunning(job);
      } else if (job.state() == io.squall.core.model.JobState.PENDING && !snapshot.completing().contains(job.key())) {
        pending.add(job);
      }
    }
    List<Candidate> candidates = rank(pending);
    for (Candidate c : candidates) {
      schedule(c);
    }
    preempt(candidates);
    return new Plan(actions);
  }

  // ---------------------------------------------------------------- running jobs

  /** Cycles count whole seconds; rounding the start up means a time limit never ends a job early. */
  private static long startSecondRoundedUp(Job job) {
    return job.startTime().getEpochSecond() + (job.startTime().getNano() > 0 ? 1 : 0);
  }

  /**
   * sbatch(1) --signal: "When a job is within sig_time seconds of its end time, send it the
   * signal sig_num" (60 s by default). With {@code R:} the end is its reservation's, so a job
   * without one is not sent it; {@code end} is already the earlier of its limit and its
   * reservation's end.
   */
  private void signalBeforeLimit(Job job, long end) {
    SignalSpec s = job.request().control().signal();
    if (s != null && s.reservation() && reservationOf(job) == null) {
      return;
    }
    if (s != null && end != Long.MAX_VALUE && nowSec >= end - s.seconds()) {
      actions.add(new Action.LimitSignal(job.key(), s.name(), s.batchOnly(), s.seconds()));
    }
  }

  private void holdRunning(Job job) {
    Partition p = partitions.get(job.partition());
    long end;
    if (job.preemptedAt() != null) {
      end = job.preemptedAt().getEpochSecond() + (p == null ? 0 : p.graceTimeSeconds());
    } else {
      int limit = p == null ? TimeLimit.UNLIMITED : p.timeLimitMinutes(job.request().timing().timeLimitMinutes());
      end = limit == TimeLimit.UNLIMITED || job.startTime() == null ? Long.MAX_VALUE
          : startSecondRoundedUp(job) + limit * 60L;
      // Slurm cancels a job in a reservation when the reservation ends (ResvOverRun=0), unless FLEX.
      end = Math.min(end, accessOf(job).endCap());
      if (end <= nowSec) {
        actions.add(new Action.Timeout(job.key()));
      } else {
        signalBeforeLimit(job, end);
      }
    }
    boolean exclusive = job.exclusive();
    AccountingPolicy.Use held = AccountingPolicy.Use.ZERO;
    for (GpuGrant grant : job.allocation()) {
      Integer i = table.indexOf(grant.node());
      if (i != null) {
        table.hold(i, grant, exclusive, end);
        runningOn.get(i).add(job);
        NodeTable.Amount a = table.held(i, grant, exclusive);
        held = held.plus(new AccountingPolicy.Use(a.gpus(), a.cpus(), a.memoryMb(), 1));
      } else {
        held = held.plus(new AccountingPolicy.Use(grant.gpuIndices().size(), grant.cpus(), grant.memoryMb(), 1));
      }
    }
    int gpus = job.gpusHeld();
    limits.add(job, held, end == Long.MAX_VALUE ? Double.POSITIVE_INFINITY : gpus * Math.max(0, end - nowSec) / 60.0);
    commitBudget(job, job.partition(), gpus, end == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, end - nowSec));
    if (job.key().taskId() != null) {
      arrayTasksRunning.merge(job.key().id(), 1, Integer::sum);
    }
  }

  // ---------------------------------------------------------------- ranking

  /**
   * A pending job that nothing but resources and priority holds back. Ordered as Slurm orders its
   * queue (higher PriorityTier first, then higher priority, then job id), except that within a
   * tier a requeued job goes before the jobs that have not run yet. Slurm resets a requeued job's
   * submit time instead; on rented machines the requeue is nearly always a machine taken away
   * (spot interruption, node failure, preemption), and a gang that had started, and may have a
   * checkpoint to resume from, should not wait for hours behind fresh work while its nodes'
   * replacements boot.
   */
  private record Candidate(Job job, List<Partition> partitions, List<GangShape> shapes,
      List<List<Attempt>> attempts, long priority, int tier) implements Comparable<Candidate> {
    @Override
    public int compareTo(Candidate o) {
      if (tier != o.tier) {
        return Integer.compare(o.tier, tier);
      }
      // reservations.html: a job with a reservation is considered before the others of its partition.
      if (reserved() != o.reserved()) {
        return reserved() ? -1 : 1;
      }
      if (resuming() != o.resuming()) {
        return resuming() ? -1 : 1;
      }
      if (priority != o.priority) {
        return Long.compare(o.priority, priority);
      }
      return job.key().compareTo(o.job.key());
    }

    boolean resuming() {
      return job.restartCount() > 0;
    }

    boolean reserved() {
      return job.request().placement().reservation() != null;
    }
  }

  /** The priority pending jobs are ordered by, from the snapshot's fair-share and the weights. */
  private MultifactorPriority multifactor() {
    FairShare fairShare = FairShare.compute(config.fairShare().algorithm(), snapshot.accounts(), snapshot.users(),
        usage);
    int maxFactor = snapshot.partitions().stream().mapToInt(Partition::priorityJobFactor).max().orElse(1);
    int maxQos = snapshot.qos().values().stream().mapToInt(Qos::priority).max().orElse(0);
    return new MultifactorPriority(config.weights(), fairShare, table.size(), maxFactor, maxQos,
        config.accrueAlways(), config.smallRelativeToTime(), config.favorSmall());
  }

  /**
   * What sprio shows: each pending job that is not held, once for each partition it may run in,
   * with its priority factors as this cycle would compute them (its age counting as of now, from
   * when it became eligible; a job not yet eligible has none).
   */
  List<JobPriority> priorities() {
    MultifactorPriority priority = multifactor();
    List<JobPriority> out = new ArrayList<>();
    for (Job job : snapshot.jobs()) {
      if (job.state() != io.squall.core.model.JobState.PENDING || job.request().control().hold()) {
        continue;
      }
      for (Partition p : partitionsOf(job)) {
        GangShape shape = GangShape.of(job.request(), p, largestGpus.get(p.name()));
        MultifactorPriority.Factors f = priority.factors(job, shape.nodes(), p, qosOf(job), now);
        out.add(new JobPriority(job, p.name(), f, priority.priority(f)));
      }
    }
    out.sort(Comparator.comparing((JobPriority j) -> j.job().key()).thenComparing(JobPriority::partition));
    return out;
  }

  private List<Candidate> rank(List<Job> pending) {
    MultifactorPriority priority = multifactor();
    dependencies = new DependencyCheck(snapshot.jobs(), now);
    List<Candidate> out = new ArrayList<>();
    List<JobKey> becameEligible = new ArrayList<>();
    for (Job job : pending) {
      PendingReason blocked = blocker(job);
      if (blocked != null) {
        actions.add(new Action.Wait(job.key(), blocked, null));
        continue;
      }
      List<Partition> usable = new ArrayList<>();
      List<GangShape> shapes = new ArrayList<>();
      List<List<Attempt>> attempts = new ArrayList<>();
      PendingReason limit = null;
      for (Partition p : partitionsOf(job)) {
        GangShape shape = GangShape.of(job.request(), p, largestGpus.get(p.name()));
        PendingReason r = partitionLimit(job, p, shape);
        List<Attempt> inPartition = r == null ? attempts(job, p, shape) : List.of();
        if (r == null && inPartition.isEmpty()) {
          r = PendingReason.REQ_NODE_NOT_AVAIL; // no alternative of the constraint admits every --nodelist node
        }
        if (r == null) {
          usable.add(p);
          shapes.add(shape);
          attempts.add(inPartition);
        } else if (limit == null) {
          limit = r;
        }
      }
      if (usable.isEmpty()) {
        actions.add(new Action.Wait(job.key(), limit == null ? PendingReason.PARTITION_CONFIG : limit, null));
        continue;
      }
      if (job.eligibleSince() == null) {
        // Nothing but resources and priority holds it back from now on (no hold, begin time
        // reached, dependency met, within its partitions' limits): it starts to age. Slurm's
        // "Age Factor" does not grow for a job blocked by those either.
        becameEligible.add(job.key());
        job = job.eligibleSince(now);
      }
      Partition first = usable.get(0);
      long prio = priority.priority(job, shapes.get(0).nodes(), first, qosOf(job), now);
      out.add(new Candidate(job, usable, shapes, attempts, prio, first.priorityTier()));
    }
    // In job order, whatever the snapshot's: the same input gives the same plan.
    java.util.Collections.sort(becameEligible);
    for (JobKey key : becameEligible) {
      actions.add(new Action.Eligible(key, now));
    }
    java.util.Collections.sort(out);
    return out;
  }

  private List<Partition> partitionsOf(Job job) {
    List<String> names = job.request().placement().partitions();
    if (names.isEmpty()) {
      return defaultPartition == null ? List.of() : List.of(defaultPartition);
    }
    List<Partition> out = new ArrayList<>();
    for (String n : names) {
      Partition p = partitions.get(n);
      if (p != null) {
        out.add(p);
      }
    }
    return out;
  }

  /** What holds the job back before resources are looked at, or null. */
  private PendingReason blocker(Job job) {
    JobRequest r = job.request();
    if (r.control().hold()) {
      return PendingReason.JOB_HELD_USER;
    }
    if ((r.timing().begin() != null && now.isBefore(r.timing().begin()))
        || (job.notBefore() != null && now.isBefore(job.notBefore()))) {
      return PendingReason.BEGIN_TIME;
    }
    if (r.timing().deadline() != null && !now.isBefore(r.timing().deadline())) {
      return PendingReason.DEADLINE;
    }
    switch (dependencyOutcome(job)) {
      case WAITING -> {
        return PendingReason.DEPENDENCY;
      }
      case NEVER -> {
        return PendingReason.DEPENDENCY_NEVER_SATISFIED;
      }
      case SATISFIED -> { }
    }
    if (r.placement().reservation() != null) {
      Reservation res = reservationOf(job);
      if (res == null) {
        // Submission checks that it exists: it was deleted or has ended since.
        return PendingReason.RESERVATION_DELETED;
      }
      if (!res.end().isAfter(now) || !res.has(Reservation.Flag.FLEX) && now.isBefore(res.start())) {
        return PendingReason.RESERVATION; // waits for its reservation to begin
      }
    }
    if (job.qos() != null && !snapshot.qos().isEmpty() && !snapshot.qos().containsKey(job.qos())) {
      return PendingReason.INVALID_QOS;
    }
    if (job.isArrayRemainder() && throttled(job)) {
      return PendingReason.JOB_ARRAY_TASK_LIMIT;
    }
    return null;
  }

  /** The advanced reservation the job names, or null (none, or one that no longer exists). */
  private Reservation reservationOf(Job job) {
    String name = job.request().placement().reservation();
    return name == null ? null : reservations.get(name);
  }

  /**
   * What the job's reservation lets it do: overlap the reservation's windows and, unless FLEX,
   * only within them (from its start, ending at its end at the latest).
   */
  private Access accessOf(Job job) {
    Reservation r = reservationOf(job);
    if (r == null) {
      return Access.NONE;
    }
    if (r.has(Reservation.Flag.FLEX)) {
      return new Access(r.name(), Long.MIN_VALUE, Long.MAX_VALUE, false);
    }
    return new Access(r.name(), r.start().getEpochSecond(), r.end().getEpochSecond(), false);
  }

  /** The nodes a job in a reservation must run on (those of a reservation that is not FLEX); null for any. */
  private Set<String> confinedTo(Job job) {
    Reservation r = reservationOf(job);
    return r == null || r.has(Reservation.Flag.FLEX) ? null : new HashSet<>(r.nodes());
  }

  /** Whether an array already runs as many tasks as its {@code %N} allows. */
  private boolean throttled(Job job) {
    ArraySpec array = job.request().control().array();
    return array != null && array.maxRunning() > 0
        && arrayTasksRunning.getOrDefault(job.key().id(), 0) >= array.maxRunning();
  }

  /**
   * The job's dependency outcome; for an array whose tasks depend each on their own ({@code
   * aftercorr}), the best over its waiting tasks: it is blocked only when none of them may start.
   */
  private DependencyCheck.Outcome dependencyOutcome(Job job) {
    if (!job.isArrayRemainder()) {
      return dependencies.check(job, job.key().taskId());
    }
    if (!DependencyCheck.dependsPerTask(job)) {
      return dependencies.check(job, job.pendingTasks().get(0));
    }
    DependencyCheck.Outcome best = DependencyCheck.Outcome.NEVER;
    for (int task : job.pendingTasks()) {
      DependencyCheck.Outcome o = dependencies.check(job, task);
      if (o == DependencyCheck.Outcome.SATISFIED) {
        return o;
      }
      if (o == DependencyCheck.Outcome.WAITING) {
        best = o;
      }
    }
    return best;
  }

  private PendingReason partitionLimit(Job job, Partition p, GangShape s) {
    // Immutable sets throw on contains(null): a job without account or QOS passes no allow list.
    if (!p.allowAccounts().isEmpty() && (job.account() == null || !p.allowAccounts().contains(job.account()))) {
      return PendingReason.INVALID_ACCOUNT;
    }
    if (!p.allowQos().isEmpty() && (job.qos() == null || !p.allowQos().contains(job.qos()))) {
      return PendingReason.INVALID_QOS;
    }
    if (p.maxTimeMinutes() != null
        && (s.timeLimitMinutes() == TimeLimit.UNLIMITED || s.timeLimitMinutes() > p.maxTimeMinutes())) {
      return PendingReason.PARTITION_TIME_LIMIT;
    }
    if (p.maxNodes() != null && s.nodes() > p.maxNodes()) {
      return PendingReason.PARTITION_NODE_LIMIT;
    }
    JobRequest.Placement place = job.request().placement();
    if (!place.nodelist().isEmpty()) {
      int[] nodesOfPartition = partitionNodes.get(p.name());
      for (String required : place.nodelist()) {
        Integer i = table.indexOf(required);
        if (i == null || !contains(nodesOfPartition, i)
            || !isEligible(table.nodes.get(i), place, s, null, true, runsOn(job))) {
          return PendingReason.REQ_NODE_NOT_AVAIL;
        }
      }
    }
    return null;
  }

  /**
   * Whether new work of this shape may go on the node: up (or resumable), GPU type, constraint
   * alternative, exclusions, and a machine bought as the job may run on.
   */
  private static boolean isEligible(Node n, JobRequest.Placement place, GangShape shape, Constraint alt,
      boolean resume, Set<CapacityType> runsOn) {
    return (n.state().acceptsWork() || resume && n.state().resumable())
        && shape.typeMatches(n)
        && (alt == null || alt.admits(n.features()))
        && !place.exclude().contains(n.name())
        && (n.capacityType() == null || runsOn.contains(n.capacityType()));
  }

  /** What the machines of the job's nodes may have been bought as ({@link BudgetLimits#runsOn}). */
  private Set<CapacityType> runsOn(Job job) {
    return snapshot.budgets().runsOn(job.account(), qosOf(job));
  }

  private static boolean contains(int[] array, int value) {
    for (int v : array) {
      if (v == value) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- placement

  private void schedule(Candidate c) {
    Job job = c.job();
    List<Integer> tasks = job.isArrayRemainder() ? job.pendingTasks() : null;
    boolean perTask = tasks != null && DependencyCheck.dependsPerTask(job);
    int next = 0;
    int started = 0;
    PendingReason reason = null;
    while (true) {
      if (tasks != null) {
        while (perTask && next < tasks.size()) {
          DependencyCheck.Outcome o = dependencies.check(job, tasks.get(next));
          if (o == DependencyCheck.Outcome.SATISFIED) {
            break;
          }
          // This task waits for its own dependency; later ones may start.
          reason = o == DependencyCheck.Outcome.WAITING || reason == PendingReason.DEPENDENCY
              ? PendingReason.DEPENDENCY : PendingReason.DEPENDENCY_NEVER_SATISFIED;
          next++;
        }
        if (next >= tasks.size()) {
          if (reason == null) {
            return;
          }
          actions.add(new Action.Wait(job.key(), reason, null));
          return;
        }
        if (started > 0 && throttled(job)) { // before the first start, blocker() checked
          reason = PendingReason.JOB_ARRAY_TASK_LIMIT;
          break;
        }
      }
      JobKey key = tasks == null ? job.key() : JobKey.task(job.key().id(), tasks.get(next));
      PendingReason failed = tryStart(c, key);
      if (failed != null) {
        reason = failed;
        break;
      }
      next++;
      started++;
      if (tasks == null) {
        return;
      }
      arrayTasksRunning.merge(job.key().id(), 1, Integer::sum);
    }
    Instant expected = null;
    if (reason == PendingReason.RESOURCES || reason == PendingReason.PRIORITY) {
      expected = reserveOrDemand(c);
    }
    actions.add(new Action.Wait(job.key(), reason, expected));
    if (reason == PendingReason.RESOURCES || reason == PendingReason.PRIORITY) {
      blockedByResources.add(job.key());
    }
  }

  /** Starts the job now in its first partition that has room; otherwise says why not. */
  private PendingReason tryStart(Candidate c, JobKey key) {
    PendingReason reason = null;
    for (int k = 0; k < c.partitions().size(); k++) {
      Partition p = c.partitions().get(k);
      GangShape shape = c.shapes().get(k);
      PendingReason qosLimit = qosLimit(c.job(), shape);
      if (qosLimit == null) {
        qosLimit = budgetLimit(c.job(), p, shape);
      }
      if (qosLimit != null) {
        reason = worse(reason, qosLimit);
        continue;
      }
      for (Attempt attempt : c.attempts().get(k)) {
        PendingReason known = failedNow.get(attempt.key());
        if (known != null) {
          reason = worse(reason, known);
          continue;
        }
        int[] nodes = placer.placeNow(attempt.request(), false);
        if (nodes != null) {
          // What it would hold there: an exclusive job's whole nodes, larger than it asked.
          PendingReason over = overLimitOn(c.job(), shape, nodes);
          if (over != null) {
            reason = worse(reason, over);
            continue;
          }
          startOnMostNodes(c.job(), key, p, shape, attempt.request(), nodes);
          return null;
        }
        // Only a reservation can make the difference between the two.
        PendingReason why = table.hasReservations() && placer.placeNow(attempt.request(), true) != null
            ? PendingReason.PRIORITY : PendingReason.RESOURCES;
        if (table.hasMaintWindows()
            && placer.placeNow(attempt.request().withAccess(attempt.request().access().ignoringMaint()), false) != null) {
          why = PendingReason.RESERVED_FOR_MAINTENANCE; // only a maintenance reservation keeps it out
        }
        failedNow.put(attempt.key(), why);
        reason = worse(reason, why);
      }
    }
    return reason == null ? PendingReason.RESOURCES : reason;
  }

  /** Resources explains more than Priority, and a QOS limit more than either; on a tie the first stays. */
  private static PendingReason worse(PendingReason a, PendingReason b) {
    if (a == null) {
      return b;
    }
    return weight(b) > weight(a) ? b : a;
  }

  private static int weight(PendingReason r) {
    switch (r) {
      case PRIORITY:
        return 0;
      case RESOURCES:
        return 1;
      default:
        return 2; // QOS limits
    }
  }

  /**
   * Starts the job that fits now: a {@code --nodes=min-max} job on as many nodes as fit now up to
   * its maximum (sbatch(1): "as many nodes as possible within the range"), among the nodes its
   * attempt may use. Only up nodes count: a range never powers nodes up just to grow.
   */
  private void startOnMostNodes(Job job, JobKey key, Partition p, GangShape atMinimum, GangPlacer.Request fits,
      int[] nodes) {
    boolean resumes = false;
    for (int i : nodes) {
      resumes |= !table.nodes.get(i).state().acceptsWork();
    }
    if (!resumes) {
      for (int n : GangShape.range(job.request(), atMinimum)) {
        if (p.maxNodes() != null && n > p.maxNodes()) {
          continue; // the partition's MaxNodes caps the range
        }
        GangShape bigger = GangShape.of(job.request(), p, largestGpus.get(p.name()), n);
        if (qosLimit(job, bigger) != null || budgetLimit(job, p, bigger) != null) {
          continue;
        }
        int[] more = placer.placeNow(new GangPlacer.Request(bigger, fits.eligible(), fits.required(), fits.counts(),
            fits.maxGroups(), fits.access()), false);
        if (more != null && overLimitOn(job, bigger, more) == null) {
          start(job, key, p, bigger, more);
          return;
        }
      }
    }
    start(job, key, p, atMinimum, nodes);
  }

  private void start(Job job, JobKey key, Partition p, GangShape shape, int[] nodes) {
    List<GpuGrant> grants = new ArrayList<>(nodes.length);
    int gpus = 0;
    long endSec = accessOf(job).end(nowSec, shape.limitSeconds());
    for (int k = 0; k < nodes.length; k++) {
      // Not added to runningOn: a job started in this cycle is never a preemption victim in it.
      GpuGrant g = table.allocate(nodes[k], shape, shape.gpusOnNode(k), endSec);
      grants.add(g);
      gpus += g.gpuIndices().size();
    }
    // Its reservation's end comes first when that is sooner than its time limit.
    Instant end = endSec == Long.MAX_VALUE ? null : Instant.ofEpochSecond(endSec);
    // What it holds counts (an exclusive job's whole nodes), not what it asked for.
    limits.add(job, onNodes(shape, nodes), shape.gpuMinutes(gpus));
    commitBudget(job, p.name(), gpus, shape.limitSeconds());
    actions.add(new Action.Start(key, p.name(), grants, end));
  }

  /** Counts what the job may still cost at worst against each budget its account spends against. */
  private void commitBudget(Job job, String partition, int gpus, long seconds) {
    BudgetLimits limits = snapshot.budgets();
    List<String> budgets = limits.budgetsOf(job.account());
    if (!budgets.isEmpty()) {
      double worst = limits.worstCostUsd(partition, runsOn(job), gpus, seconds);
      budgets.forEach(a -> budgetCommitted.merge(a, worst, Double::sum));
    }
  }

  /**
   * A hard budget of the job's account (or an ancestor's) that is spent, or that what running
   * jobs may still cost and this job's worst case would overrun: Slurm's AssocGrpBillingMinutes.
   */
  private PendingReason budgetLimit(Job job, Partition p, GangShape shape) {
    BudgetLimits limits = snapshot.budgets();
    List<String> budgets = limits.budgetsOf(job.account());
    if (budgets.isEmpty()) {
      return null;
    }
    double worst = limits.worstCostUsd(p.name(), runsOn(job), shape.totalGpus(), shape.limitSeconds());
    for (String a : budgets) {
      Double left = limits.hardLeftUsd().get(a);
      if (left == null) {
        continue;
      }
      double free = left - budgetCommitted.getOrDefault(a, 0.0);
      if (free <= 0 || worst > free) {
        return PendingReason.ASSOC_GRP_BILLING_MINUTES;
      }
    }
    return null;
  }

  /** The job's QOS, or null when it has none or an unknown one (immutable maps throw on get(null)). */
  private Qos qosOf(Job job) {
    return job.qos() == null ? null : snapshot.qos().get(job.qos());
  }

  /** A QOS or association limit the job's ask would pass (before placement), or null. */
  private PendingReason qosLimit(Job job, GangShape shape) {
    long memory = shape.memoryMb() == GangShape.WHOLE_NODE ? 0 : shape.memoryMb() * shape.nodes();
    return limits.check(job, new AccountingPolicy.Use(shape.totalGpus(), shape.cpusPerNode() * shape.nodes(), memory,
        shape.nodes()), shape.gpuMinutes());
  }

  /** A limit the job would pass holding what the shape takes of these nodes, or null. */
  private PendingReason overLimitOn(Job job, GangShape shape, int[] nodes) {
    AccountingPolicy.Use use = onNodes(shape, nodes);
    return limits.check(job, use, shape.gpuMinutes(use.gpus()));
  }

  /** What the shape takes of these nodes: the whole node when exclusive, and all of its memory for --mem=0. */
  private AccountingPolicy.Use onNodes(GangShape shape, int[] nodes) {
    AccountingPolicy.Use use = AccountingPolicy.Use.ZERO;
    for (int k = 0; k < nodes.length; k++) {
      int i = nodes[k];
      int gpus = shape.exclusive() ? table.needGpus(i, shape) : shape.gpusOnNode(k);
      use = use.plus(new AccountingPolicy.Use(gpus, table.needCpus(i, shape), table.needMemory(i, shape), 1));
    }
    return use;
  }

  /** What decides which nodes are eligible for a job in a partition. */
  private record EligibleKey(String partition, String gpuType, String constraint, int alternative,
      List<String> exclude, boolean resume, Set<CapacityType> runsOn, String reservation) {}

  /** Everything that decides whether a placement can succeed now (the eligible nodes included). */
  private record FailKey(String partition, GangShape shape, String constraint, int alternative,
      List<String> nodelist, List<String> exclude, int maxGroups, boolean resume, Set<CapacityType> runsOn,
      Access access) {}

  /** One way to place a job in one partition, with the key of its outcome in this cycle. */
  private record Attempt(GangPlacer.Request request, FailKey key) {}

  /**
   * One attempt per alternative of the job's constraint (a matching OR has several) that admits
   * every node of its --nodelist, on the nodes that are up; then, in a partition with powered-down
   * nodes, the same again with those counted in. Worked out once per candidate and partition.
   */
  private List<Attempt> attempts(Job job, Partition p, GangShape shape) {
    JobRequest.Placement place = job.request().placement();
    List<Constraint> alternatives = place.constraint() == null ? java.util.Collections.singletonList(null)
        : place.constraint().alternatives();
    int[] required = place.nodelist().isEmpty() ? NONE
        : place.nodelist().stream().distinct().mapToInt(table::indexOf).toArray();
    int maxGroups = Integer.MAX_VALUE;
    if (place.switches() != null) {
      Duration wait = place.switchesWaitMinutes() != null ? Duration.ofMinutes(place.switchesWaitMinutes())
          : config.maxSwitchWait();
      if (now.isBefore(job.submitTime().plus(wait))) {
        maxGroups = place.switches();
      }
    }
    List<Attempt> out = new ArrayList<>(alternatives.size());
    // Nodes that are up first; only if those cannot hold the gang, nodes that would have to be
    // powered up as well (Slurm's power saving: a job allocated powered-down nodes resumes them).
    int passes = hasResumable.contains(p.name()) ? 2 : 1;
    Set<CapacityType> runsOn = runsOn(job);
    Access access = accessOf(job);
    Set<String> confined = confinedTo(job);
    for (int pass = 0; pass < passes; pass++) {
      boolean resume = pass == 1;
      for (int a = 0; a < alternatives.size(); a++) {
        Constraint alt = alternatives.get(a);
        int[] eligible = eligible(place, p, shape, alt, a, resume, runsOn, access.reservation(), confined);
        if (containsAll(eligible, required)) {
          GangPlacer.Request request = new GangPlacer.Request(shape, eligible, required,
              alt == null ? List.of() : alt.counts(), maxGroups, access);
          out.add(new Attempt(request, new FailKey(p.name(), shape, place.constraintText(), a, place.nodelist(),
              place.exclude(), maxGroups, resume, runsOn, access)));
        }
      }
    }
    return out;
  }

  private static boolean containsAll(int[] array, int[] values) {
    for (int v : values) {
      if (!contains(array, v)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Nodes of the partition that accept work (or, with {@code resume}, could be powered up for it)
   * and match GPU type, constraint, exclusions and what the job may run on.
   */
  private int[] eligible(JobRequest.Placement place, Partition p, GangShape shape, Constraint alt, int altIndex,
      boolean resume, Set<CapacityType> runsOn, String reservation, Set<String> confined) {
    EligibleKey key = new EligibleKey(p.name(), shape.gpuType(), place.constraintText(), altIndex, place.exclude(),
        resume, runsOn, confined == null ? null : reservation);
    return eligibleCache.computeIfAbsent(key, k -> {
      List<Integer> out = new ArrayList<>();
      for (int i : partitionNodes.get(p.name())) {
        Node n = table.nodes.get(i);
        if ((confined == null || confined.contains(n.name())) && isEligible(n, place, shape, alt, resume, runsOn)) {
          out.add(i);
        }
      }
      return out.stream().mapToInt(Integer::intValue).toArray();
    });
  }

  /**
   * For a job that cannot start: a backfill reservation while bf_max_job_test allows, in
   * whichever of its partitions it can start first within bf_window, and capacity demand when no
   * existing node of any of them could ever hold it.
   *
   * @return the reserved start, or null
   */
  private Instant reserveOrDemand(Candidate c) {
    boolean fitsSomewhere = false;
    for (int k = 0; k < c.partitions().size() && !fitsSomewhere; k++) {
      fitsSomewhere = fitsExistingNodes(c.shapes().get(k), c.attempts().get(k));
    }
    if (!fitsSomewhere && c.job().request().placement().reservation() != null) {
      return null; // its reservation's nodes are all it may use: more machines would not help
    }
    if (!fitsSomewhere) {
      Partition p = c.partitions().get(0);
      GangShape shape = c.shapes().get(0);
      Constraint alt = c.job().request().placement().constraint() == null ? null
          : c.job().request().placement().constraint().alternatives().get(0);
      actions.add(new Action.CapacityDemand(c.job().key(), p.name(), shape.nodes(), shape.gpusPerNode(),
          shape.gpuType(), shape.cpusPerNode(), shape.memoryMb(), alt == null ? List.of() : alt.requiredFeatures()));
      return null;
    }
    // bf_max_job_test: Slurm's backfill stops once it has tried to place that many jobs
    // (backfill.c, bf_last_depth_try). Here only the jobs that cannot start at once count: the
    // ones a reservation is searched for; below them jobs still start if they fit now.
    if (reservationsTried >= config.backfill().maxJobTest()) {
      return null;
    }
    reservationsTried++;
    GangPlacer.Reservation best = null;
    GangShape bestShape = null;
    for (int k = 0; k < c.partitions().size(); k++) {
      for (Attempt attempt : c.attempts().get(k)) {
        long from = reservableFrom.getOrDefault(attempt.key(), nowSec);
        GangPlacer.Reservation res = from == NEVER ? null : placer.findReservation(attempt.request(), from);
        reservableFrom.put(attempt.key(), res == null ? NEVER : res.start());
        if (res != null) {
          if (best == null || res.start() < best.start()) {
            best = res;
            bestShape = attempt.request().shape();
          }
          break; // the first alternative that can be reserved, as for one partition
        }
      }
    }
    if (best == null) {
      return null;
    }
    placer.book(best, bestShape, accessOf(c.job()));
    return Instant.ofEpochSecond(best.start());
  }

  /**
   * Whether enough existing nodes of the partition (up, or for a resume attempt powered down)
   * could hold the shape if they were empty. It depends on the shape and the eligible nodes only,
   * so it is worked out once per cycle for each.
   */
  private boolean fitsExistingNodes(GangShape shape, List<Attempt> attempts) {
    for (Attempt attempt : attempts) {
      boolean fits = holdsShape.computeIfAbsent(attempt.key(), k -> {
        int holders = 0;
        for (int i : attempt.request().eligible()) {
          if (table.couldHold(i, shape) && ++holders >= shape.nodes()) {
            return true;
          }
        }
        return false;
      });
      if (fits) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- preemption

  private void preempt(List<Candidate> candidates) {
    Preemptor preemptor = new Preemptor(table, groupOf, groupCount, runningOn, partitions, snapshot.qos(), now);
    int tried = 0;
    for (Candidate c : candidates) {
      if (tried >= config.preemptionDepth()) {
        return;
      }
      if (!blockedByResources.contains(c.job().key()) || !mayPreempt(c)) {
        continue;
      }
      tried++;
      Partition p = c.partitions().get(0);
      GangShape shape = c.shapes().get(0);
      if (qosLimit(c.job(), shape) != null) {
        continue;
      }
      for (Attempt attempt : c.attempts().get(0)) {
        // Only nodes it could start on once freed: never a job off a node an advanced reservation keeps it from.
        List<Preemptor.Victim> victims = preemptor.victimsFor(c.job(), p, shape, startableOn(attempt.request()));
        if (!victims.isEmpty()) {
          for (Preemptor.Victim v : victims) {
            if (v.alreadyPreempted()) {
              continue; // a second Preempt would restart its grace time
            }
            var signal = v.job().request().control().signal();
            actions.add(new Action.Preempt(v.job().key(), c.job().key(), v.mode(),
                signal == null ? "TERM" : signal.name(), v.graceSeconds()));
          }
          break;
        }
      }
    }
  }

  /** The request's eligible nodes on which the advanced reservations let it start now. */
  private int[] startableOn(GangPlacer.Request r) {
    if (!table.hasWindows()) {
      return r.eligible();
    }
    long end = r.access().end(nowSec, r.shape().limitSeconds());
    return Arrays.stream(r.eligible()).filter(i -> table.windowsAllow(i, nowSec, end, r.access())).toArray();
  }

  private boolean mayPreempt(Candidate c) {
    Qos q = qosOf(c.job());
    if (q != null && !q.preempt().isEmpty()) {
      return true;
    }
    int tier = c.partitions().get(0).priorityTier();
    return partitions.values().stream().anyMatch(p -> p.priorityTier() < tier);
  }
}
