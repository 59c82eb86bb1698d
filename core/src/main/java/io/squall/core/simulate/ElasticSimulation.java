package io.squall.core.simulate;

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
import io.squall.core.model.UserAssociation;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import io.squall.core.provision.CapacityPolicy;
import io.squall.core.provision.ElasticNode;
import io.squall.core.provision.OfferingBook;
import io.squall.core.provision.PowerAction;
import io.squall.core.provision.PowerPlanner;
import io.squall.core.sbatch.SbatchParser;
import io.squall.core.schedule.Action;
import io.squall.core.schedule.Plan;
import io.squall.core.schedule.Scheduler;
import io.squall.core.schedule.SchedulerConfig;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An elastic partition in virtual time: the production {@link Scheduler} and {@link PowerPlanner}
 * against a {@link SimulatedProvider}, with plans applied as the controller applies them.
 *
 * <p>Semantics, per virtual instant ("tick", on a grid of {@link Setup#tick()} from the start):
 * <ol>
 *   <li>jobs due are submitted (as sbatch requests through {@link SbatchParser}); running jobs
 *       whose runtime is over end COMPLETED (their nodes are idle from the exact end time when
 *       no other job holds them); launched nodes whose instance has booted are up (ALLOCATED
 *       when a job holds them, else IDLE), and a CONFIGURING job whose nodes are all up starts
 *       RUNNING then;</li>
 *   <li>a scheduler cycle runs when something changed since the last one (a submission, an end,
 *       a boot, a requeue) and at least {@link Setup#schedulerInterval()} has passed since it. A
 *       Start on nodes that are all up runs the job at once; a Start that includes powered-down
 *       (CLOUD) or powering-up nodes makes the job CONFIGURING, holding them, and each CLOUD node
 *       POWERING_UP (resume requested now, waiting for a launch call). Timeouts end jobs;
 *       preemption and capacity demand have no effect here (one tier, one partition);</li>
 *   <li>the power planner runs and its actions are carried out: a Launch (skipped when one of its
 *       nodes no longer waits, or when an earlier call at this instant marked its offering
 *       unavailable) calls the provider with the gang's nodes, minCount = all of them; success
 *       marks them launched in the offering's zone, failure is recorded in the
 *       {@link OfferingBook} and backs the nodes off ({@link PowerPlanner#retryAt}); when that
 *       lets them try another offering at once, the planner runs again at the same instant
 *       (provider calls take no virtual time); Resume powers a node up for no job;
 *       Suspend terminates an idle node's instance (node CLOUD); Release terminates the nodes'
 *       instances (nodes CLOUD) and requeues the jobs holding them, whose other nodes are freed.</li>
 * </ol>
 * Between ticks nothing happens, so the loop jumps to the next tick at which something can:
 * a submission, a job end, a boot, a suspend or resume-timeout deadline, a deferred cycle, and
 * every tick while nodes wait for a launch call. The run ends when every job has ended and every
 * node is powered down again, or after {@link Setup#maxTime()}.
 *
 * <p>Deterministic: ordered maps everywhere, ties broken by job key and node name; the same
 * setup, provider seed and workload give an equal {@link Result} (event log included).
 *
 * <p>Not thread-safe; one run per instance.
 */
public final class ElasticSimulation {
  /**
   * One elastic partition and how the loop runs.
   *
   * @param nodes the partition's nodes, all powered down at the start (their state is ignored)
   * @param tick the grid of virtual instants at which the loop acts (the controller's loop period)
   * @param schedulerInterval the least virtual time between two scheduler cycles
   * @param maxTime the run stops after this much virtual time even if work remains
   */
  public record Setup(String cluster, String partition, List<Node> nodes, CapacityPolicy policy,
      SchedulerConfig scheduler, Duration tick, Duration schedulerInterval, Duration maxTime) {
    public Setup {
      Objects.requireNonNull(cluster, "cluster");
      Objects.requireNonNull(partition, "partition");
      Objects.requireNonNull(policy, "policy");
      Objects.requireNonNull(scheduler, "scheduler");
      nodes = List.copyOf(nodes);
      if (tick.isNegative() || tick.isZero()) {
        throw new IllegalArgumentException("tick must be positive");
      }
    }

    /** A 250 ms tick, a cycle at most every second, at most 90 virtual days. */
    public static Setup of(String cluster, String partition, List<Node> nodes, CapacityPolicy policy) {
      return new Setup(cluster, partition, nodes, policy, SchedulerConfig.defaults(), Duration.ofMillis(250),
          Duration.ofSeconds(1), Duration.ofDays(90));
    }

    public Setup withSchedulerInterval(Duration interval) {
      return new Setup(cluster, partition, nodes, policy, scheduler, tick, interval, maxTime);
    }

    public Setup withScheduler(SchedulerConfig config) {
      return new Setup(cluster, partition, nodes, policy, config, tick, schedulerInterval, maxTime);
    }
  }

  /**
   * One job of the workload, submitted as {@code sbatch -N nodes --gres=gpu:gpusPerNode -t limit}
   * where the limit is the runtime rounded up to the minute plus 5 minutes.
   *
   * @param submitAt when it is submitted, from the start of the run
   * @param runtime how long it runs once all its nodes are up
   */
  public record JobSpec(Duration submitAt, int nodes, int gpusPerNode, Duration runtime) {
    public JobSpec {
      if (nodes < 1 || gpusPerNode < 0 || runtime.isNegative() || submitAt.isNegative()) {
        throw new IllegalArgumentException("job spec needs nodes >= 1, gpus >= 0, runtime and submit >= 0");
      }
    }
  }

  /**
   * What a run gave.
   *
   * @param jobs jobs submitted
   * @param jobsCompleted jobs that ran to their end
   * @param launchCalls calls to the provider's launch, failed ones included
   * @param failedLaunchCalls of those, the ones that failed
   * @param nodesLaunched instances made
   * @param spotNodesLaunched of those, spot ones
   * @param partialGangsBilled instances launched for a gang that did not get all its nodes (a
   *     provider launch short of its count, or a gang released before it ran)
   * @param orphans instances alive at the end that no node accounts for
   * @param jobsLaunchedFor jobs that needed a launch call for at least one node and got all
   * @param medianTimeToLaunchCallMs per such job: from its allocation (its submission, if it was
   *     allocated in the first cycle that saw it) to the launch call that covered its last node;
   *     the lower median; 0 when no job needed one
   * @param maxTimeToLaunchCallMs the largest of those
   * @param idleNodeHours time nodes were up with no job on them
   * @param billedNodeHours instance time billed
   * @param billedDollars what that cost at the offerings' prices
   * @param requeues jobs put back in the queue because their nodes were released
   * @param schedulerCycles cycles run
   * @param makespan from the start to the last job's end
   * @param finished whether every job ended and every node was powered down before maxTime
   * @param events the event log (submissions aside), for determinism checks and debugging
   */
  public record Result(int jobs, int jobsCompleted, long launchCalls, long failedLaunchCalls, long nodesLaunched,
      long spotNodesLaunched, long partialGangsBilled, int orphans, int jobsLaunchedFor, long medianTimeToLaunchCallMs,
      long maxTimeToLaunchCallMs, double idleNodeHours, double billedNodeHours, double billedDollars, int requeues,
      int schedulerCycles, Duration makespan, boolean finished, List<String> events) {
    public Result {
      events = List.copyOf(events);
    }
  }

  /** A node as the controller tracks it. */
  private static final class SimNode {
    final Node template;
    NodeState state = NodeState.CLOUD;
    Instant since;
    final Set<JobKey> holders = new TreeSet<>();
    boolean launched;
    int attempts;
    Instant retryAt;
    Instance instance;
    /** When it became up with no job on it; null when it is not. */
    Instant idleSince;

    SimNode(Node template, Instant since) {
      this.template = template;
      this.since = since;
    }

    boolean up() {
      return state == NodeState.IDLE || state == NodeState.ALLOCATED;
    }

    void powerDown(Instant now) {
      state = NodeState.CLOUD;
      since = now;
      launched = false;
      attempts = 0;
      retryAt = null;
      instance = null;
    }
  }

  /** A job and what the simulation knows of it. */
  private static final class SimJob {
    Job job;
    final JobSpec spec;
    Instant endsAt;
    /** Whether a cycle has seen it pending (then its allocation, not its submission, starts the clock). */
    boolean seenByCycle;
    Instant measureFrom;
    final Set<String> awaitingCall = new TreeSet<>();

    SimJob(Job job, JobSpec spec) {
      this.job = job;
      this.spec = spec;
    }
  }

  private static final String USER = "sim";
  private static final String ACCOUNT = "sim";

  private final Setup setup;
  private final VirtualClock clock;
  private final SimulatedProvider provider;
  private final Scheduler scheduler;
  private final PowerPlanner planner;
  private final OfferingBook book = new OfferingBook();
  private final SbatchParser parser = new SbatchParser(ZoneOffset.UTC);
  private final Map<String, SimNode> nodes = new TreeMap<>();
  private final Map<JobKey, SimJob> jobs = new TreeMap<>();
  private final PriorityQueue<SimJob> running = new PriorityQueue<>(
      Comparator.comparing((SimJob j) -> j.endsAt).thenComparing(j -> j.job.key()));
  private final List<String> events = new ArrayList<>();
  private final List<Long> launchWaitsMs = new ArrayList<>();
  private final Partition partition;
  private final Map<String, CapacityPolicy> policies;
  private Map<String, List<Offering>> offerings;
  private Instant start;
  private Instant lastEnd;
  private Instant lastCycle;
  private boolean changed;
  private double idleSeconds;
  private long partialGangsBilled;
  private long spotNodesLaunched;
  private int requeues;
  private int cycles;
  private int completed;

  /** @param clock the clock {@code provider} reads; the simulation moves it, from its current instant */
  public ElasticSimulation(Setup setup, VirtualClock clock, SimulatedProvider provider) {
    this.setup = setup;
    this.clock = clock;
    this.provider = provider;
    this.scheduler = new Scheduler(setup.scheduler());
    this.planner = new PowerPlanner(setup.cluster());
    this.partition = Partition.of(setup.partition(), setup.nodes().stream().map(Node::name).toList()).asDefault();
    this.policies = Map.of(setup.partition(), setup.policy());
  }

  /** Runs the workload to its end (or {@link Setup#maxTime()}). Call once. */
  public Result run(List<JobSpec> workload) {
    if (start != null) {
      throw new IllegalStateException("a simulation runs once");
    }
    start = clock.instant();
    lastEnd = start;
    offerings = Map.of(setup.partition(), provider.offerings(setup.policy().instanceTypes()));
    for (Node n : setup.nodes()) {
      nodes.put(n.name(), new SimNode(n, start));
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < workload.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparing((Integer i) -> workload.get(i).submitAt()).thenComparingInt(i -> i));
    int submitted = 0;
    Instant limit = start.plus(setup.maxTime());
    Instant now = start;
    boolean finished;
    while (true) {
      clock.set(now);
      while (submitted < order.size() && !start.plus(workload.get(order.get(submitted)).submitAt()).isAfter(now)) {
        int i = order.get(submitted++);
        submit(i + 1L, workload.get(i), now);
      }
      endDueJobs(now);
      boot(now);
      if (changed && (lastCycle == null || !now.isBefore(lastCycle.plus(setup.schedulerInterval())))) {
        cycle(now);
      }
      power(now);
      finished = submitted == order.size() && jobs.isEmpty()
          && nodes.values().stream().allMatch(n -> n.state == NodeState.CLOUD);
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
    return result(workload.size(), now, finished);
  }

  // ---------------------------------------------------------------- jobs

  private void submit(long id, JobSpec spec, Instant now) {
    long minutes = (spec.runtime().toSeconds() + 59) / 60 + 5;
    List<String> options = List.of("-N", Integer.toString(spec.nodes()), "--gres=gpu:" + spec.gpusPerNode(),
        "-t", Long.toString(minutes), "-J", "sim-" + id);
    Job job = Job.pending(id, parser.parse("#!/bin/bash\nsrun python train.py\n", "sim.sh", options, now).request(),
        USER, ACCOUNT, "normal", now);
    jobs.put(job.key(), new SimJob(job, spec));
    changed = true;
  }

  private void endDueJobs(Instant now) {
    while (!running.isEmpty() && !running.peek().endsAt.isAfter(now)) {
      SimJob j = running.poll();
      end(j, JobState.COMPLETED, j.endsAt);
      completed++;
    }
  }

  private void end(SimJob j, JobState state, Instant at) {
    jobs.remove(j.job.key());
    running.remove(j);
    for (GpuGrant g : j.job.allocation()) {
      release(nodes.get(g.node()), j.job.key(), at);
    }
    j.job = j.job.finished(state, state == JobState.COMPLETED ? 0 : null, at);
    lastEnd = at.isAfter(lastEnd) ? at : lastEnd;
    events.add(at(at) + " end " + j.job.key() + " " + state);
    changed = true;
  }

  /** The job no longer holds the node: an up node with no job left is idle from {@code at}. */
  private void release(SimNode n, JobKey key, Instant at) {
    n.holders.remove(key);
    if (!n.holders.isEmpty()) {
      return;
    }
    if (n.up()) {
      n.state = NodeState.IDLE;
      n.since = at;
      n.idleSince = at;
    } else if (n.state == NodeState.POWERING_UP && !n.launched) {
      n.powerDown(at); // nobody wants it any more and nothing was bought for it
    }
  }

  private void runIfUp(SimJob j, Instant now) {
    for (GpuGrant g : j.job.allocation()) {
      if (!nodes.get(g.node()).up()) {
        return;
      }
    }
    j.job = j.job.started(j.job.key(), j.job.partition(), j.job.allocation(), now);
    j.endsAt = now.plus(j.spec.runtime());
    running.add(j);
    events.add(at(now) + " run " + j.job.key());
  }

  // ---------------------------------------------------------------- boots

  private void boot(Instant now) {
    for (SimNode n : nodes.values()) {
      if (n.state != NodeState.POWERING_UP || !n.launched) {
        continue;
      }
      Instant booted = provider.bootTime(n.instance.id());
      if (booted.isAfter(now)) {
        continue;
      }
      n.since = booted;
      if (n.holders.isEmpty()) {
        n.state = NodeState.IDLE;
        n.idleSince = booted;
      } else {
        n.state = NodeState.ALLOCATED;
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

  // ---------------------------------------------------------------- scheduling

  private void cycle(Instant now) {
    changed = false;
    lastCycle = now;
    cycles++;
    List<Node> snapshotNodes = new ArrayList<>(nodes.size());
    for (SimNode n : nodes.values()) {
      NodeState s = n.up() ? (n.holders.isEmpty() ? NodeState.IDLE : NodeState.ALLOCATED) : n.state;
      snapshotNodes.add(n.template.withState(s));
    }
    List<Job> snapshotJobs = new ArrayList<>(jobs.size());
    for (SimJob j : jobs.values()) {
      snapshotJobs.add(j.job);
    }
    ClusterSnapshot snapshot = new ClusterSnapshot(snapshotNodes, List.of(partition), Map.of("normal", Qos.normal()),
        List.of(new Account(ACCOUNT, null, 1)), List.of(new UserAssociation(USER, ACCOUNT, 1)), snapshotJobs,
        UsageLedger.empty(start, Duration.ofDays(7)));
    Plan plan = scheduler.cycle(snapshot, now);
    for (Action a : plan.actions()) {
      if (a instanceof Action.Start) {
        start((Action.Start) a, now);
      } else if (a instanceof Action.Timeout) {
        SimJob j = jobs.get(a.job());
        if (j != null && j.job.state().holdsResources()) {
          end(j, JobState.TIMEOUT, now);
        }
      }
    }
    for (SimJob j : jobs.values()) {
      if (j.job.state() == JobState.PENDING) {
        j.seenByCycle = true;
      }
    }
  }

  private void start(Action.Start s, Instant now) {
    SimJob j = jobs.get(s.job());
    if (j == null || j.job.state() != JobState.PENDING) {
      return;
    }
    j.awaitingCall.clear();
    boolean allUp = true;
    for (GpuGrant g : s.grants()) {
      SimNode n = nodes.get(g.node());
      if (n.state == NodeState.CLOUD) {
        n.state = NodeState.POWERING_UP;
        n.since = now;
        n.launched = false;
        n.attempts = 0;
        n.retryAt = null;
      }
      if (n.state == NodeState.POWERING_UP && !n.launched) {
        j.awaitingCall.add(n.template.name());
      }
      if (n.up()) {
        endIdle(n, now);
        n.state = NodeState.ALLOCATED;
      } else {
        allUp = false;
      }
      n.holders.add(j.job.key());
    }
    if (allUp) {
      j.job = j.job.started(s.job(), s.partition(), s.grants(), now);
      j.endsAt = now.plus(j.spec.runtime());
      running.add(j);
      events.add(at(now) + " run " + j.job.key() + " on up nodes");
      return;
    }
    j.job = configuring(j.job, s);
    j.measureFrom = j.awaitingCall.isEmpty() ? null : j.seenByCycle ? now : j.job.submitTime();
    events.add(at(now) + " allocate " + j.job.key() + " " + s.grants().size() + " nodes, "
        + j.awaitingCall.size() + " to launch");
  }

  /** The job holds nodes that are still powering up: it starts once all are up. */
  private static Job configuring(Job job, Action.Start s) {
    return new Job(s.job(), job.request(), job.user(), job.account(), job.qos(), job.submitTime(),
        JobState.CONFIGURING, s.partition(), List.of(), s.grants(), null, null, null, null, job.restartCount());
  }

  // ---------------------------------------------------------------- power

  /**
   * Plans and carries out power actions. When a launch call fails in a way that lets another
   * offering be tried at once (or was skipped because an earlier call just marked its offering),
   * the planner runs again at the same instant, as the controller re-plans as soon as it learns
   * of a failure; at most once per offering, since each round marks one more unavailable.
   */
  private void power(Instant now) {
    List<Offering> offered = offerings.get(setup.partition());
    for (int round = 0; round <= offered.size(); round++) {
      if (!powerRound(now)) {
        return;
      }
    }
  }

  /** One plan, carried out; whether a launch should be planned again now. */
  private boolean powerRound(Instant now) {
    List<ElasticNode> elastic = new ArrayList<>(nodes.size());
    for (SimNode n : nodes.values()) {
      elastic.add(new ElasticNode(n.template.name(), setup.partition(), n.template.placementGroup(), n.state, n.since,
          !n.holders.isEmpty(), n.launched, n.instance == null ? null : n.instance.offering().zone(), n.attempts,
          n.retryAt));
    }
    boolean again = false;
    for (PowerAction a : planner.plan(now, elastic, policies, offerings, book)) {
      if (a instanceof PowerAction.Launch) {
        again |= !launch((PowerAction.Launch) a, now);
      } else if (a instanceof PowerAction.Resume) {
        SimNode n = nodes.get(((PowerAction.Resume) a).node());
        if (n.state == NodeState.CLOUD) {
          n.state = NodeState.POWERING_UP;
          n.since = now;
        }
      } else if (a instanceof PowerAction.Suspend) {
        suspend(nodes.get(((PowerAction.Suspend) a).node()), now);
      } else if (a instanceof PowerAction.Release) {
        PowerAction.Release r = (PowerAction.Release) a;
        releaseNodes(r.nodes(), r.reason(), now);
      }
    }
    return again;
  }

  /**
   * Carries out a launch; false when its nodes may try another offering at once (the call failed
   * so, or was skipped because an earlier call this instant marked its offering unavailable).
   */
  private boolean launch(PowerAction.Launch l, Instant now) {
    List<SimNode> gang = new ArrayList<>();
    for (String name : l.nodes()) {
      SimNode n = nodes.get(name);
      if (n.state != NodeState.POWERING_UP || n.launched) {
        return true; // the state moved on since the plan: the next tick plans again
      }
      gang.add(n);
    }
    if (!book.available(l.offering(), now)) {
      return false;
    }
    List<NodeLaunch> launches = new ArrayList<>();
    for (SimNode n : gang) {
      Node node = n.template;
      launches.add(new NodeLaunch(new Node(node.name(), node.gpus(), node.gpuType(), node.cpus(), node.memoryMb(),
          node.features(), node.placementGroup(), NodeState.POWERING_UP), "http://controller.sim:6820",
          "sim-token-" + node.name()));
    }
    LaunchRequest request = new LaunchRequest(setup.cluster(), l.partition(), launches, launches.size(), l.offering(),
        l.providerPlacementGroup(), Map.of(), l.idempotencyToken());
    List<Instance> made;
    try {
      made = provider.launch(request);
    } catch (ProviderException e) {
      book.recordFailure(l.offering(), e, now, setup.policy());
      for (SimNode n : gang) {
        n.attempts++;
        n.retryAt = PowerPlanner.retryAt(setup.policy(), n.attempts, e, now);
      }
      events.add(at(now) + " launch " + l.placementGroup() + " " + l.nodes().size() + " nodes "
          + l.offering().key() + " failed " + e.kind());
      return gang.stream().anyMatch(n -> n.retryAt.isAfter(now));
    }
    Map<String, Instance> byNode = new HashMap<>();
    for (Instance i : made) {
      byNode.put(i.nodeName(), i);
    }
    for (SimNode n : gang) {
      Instance i = byNode.get(n.template.name());
      n.attempts++;
      if (i == null) {
        continue; // a short launch: the node still waits (the provider counts the partial gang)
      }
      n.launched = true;
      n.retryAt = null;
      n.instance = i;
      for (JobKey k : n.holders) {
        SimJob j = jobs.get(k);
        if (j.awaitingCall.remove(n.template.name()) && j.awaitingCall.isEmpty() && j.measureFrom != null) {
          launchWaitsMs.add(Duration.between(j.measureFrom, now).toMillis());
          j.measureFrom = null;
        }
      }
    }
    if (l.offering().capacityType() == CapacityType.SPOT) {
      spotNodesLaunched += made.size();
    }
    events.add(at(now) + " launch " + l.placementGroup() + " " + made.size() + " nodes " + l.offering().key());
    return true;
  }

  private void suspend(SimNode n, Instant now) {
    if (n.state != NodeState.IDLE || !n.holders.isEmpty()) {
      return;
    }
    endIdle(n, now);
    if (n.instance != null) {
      provider.terminate(n.instance);
    }
    n.powerDown(now);
    events.add(at(now) + " suspend " + n.template.name());
  }

  private void releaseNodes(List<String> names, String reason, Instant now) {
    Set<JobKey> requeue = new TreeSet<>();
    for (String name : names) {
      requeue.addAll(nodes.get(name).holders);
    }
    Set<String> billedForNothing = new TreeSet<>();
    for (JobKey k : requeue) {
      SimJob j = jobs.get(k);
      for (GpuGrant g : j.job.allocation()) {
        if (nodes.get(g.node()).launched) {
          billedForNothing.add(g.node());
        }
      }
      j.job = j.job.requeued();
      j.awaitingCall.clear();
      j.measureFrom = null;
      requeues++;
      events.add(at(now) + " requeue " + k + ": " + reason);
    }
    partialGangsBilled += billedForNothing.size();
    for (String name : names) {
      SimNode n = nodes.get(name);
      endIdle(n, now);
      if (n.instance != null) {
        provider.terminate(n.instance);
      }
      n.holders.clear();
      n.powerDown(now);
    }
    for (JobKey k : requeue) {
      for (SimNode n : nodes.values()) {
        if (n.holders.contains(k)) {
          release(n, k, now);
        }
      }
    }
    events.add(at(now) + " release " + names.size() + " nodes: " + reason);
    changed = true;
  }

  private void endIdle(SimNode n, Instant now) {
    if (n.idleSince != null) {
      idleSeconds += Duration.between(n.idleSince, now).toMillis() / 1000.0;
      n.idleSince = null;
    }
  }

  // ---------------------------------------------------------------- time

  /** The next tick at which something can happen; null when nothing can. */
  private Instant next(Instant now, Instant nextSubmission) {
    Instant next = nextSubmission;
    if (!running.isEmpty()) {
      next = min(next, running.peek().endsAt);
    }
    CapacityPolicy policy = setup.policy();
    for (SimNode n : nodes.values()) {
      if (n.state == NodeState.POWERING_UP) {
        if (!n.launched) {
          next = min(next, now.plus(setup.tick())); // batch window, backoff, offerings coming back
        } else {
          next = min(next, provider.bootTime(n.instance.id()));
        }
        next = min(next, n.since.plus(policy.resumeTimeout()));
      } else if (n.state == NodeState.IDLE && n.holders.isEmpty()) {
        next = min(next, n.since.plus(policy.suspendTime()));
      }
    }
    if (changed && lastCycle != null) {
      next = min(next, lastCycle.plus(setup.schedulerInterval()));
    }
    if (next == null) {
      return null;
    }
    long tickMs = setup.tick().toMillis();
    long offset = Duration.between(start, next).toMillis();
    long ticks = Math.max(Duration.between(start, now).toMillis() / tickMs + 1, (offset + tickMs - 1) / tickMs);
    return start.plusMillis(ticks * tickMs);
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
    Set<String> accounted = new TreeSet<>();
    for (SimNode n : nodes.values()) {
      if (n.instance != null) {
        accounted.add(n.instance.id());
      }
    }
    int orphans = 0;
    for (Instance i : provider.list(setup.cluster())) {
      if (!accounted.contains(i.id())) {
        orphans++;
        events.add(at(now) + " orphan " + i.id() + " (" + i.nodeName() + ")");
      }
    }
    List<Long> waits = new ArrayList<>(launchWaitsMs);
    waits.sort(Comparator.naturalOrder());
    long median = waits.isEmpty() ? 0 : waits.get((waits.size() - 1) / 2);
    long max = waits.isEmpty() ? 0 : waits.get(waits.size() - 1);
    return new Result(submitted, completed, provider.launchCalls(), provider.failedLaunchCalls(),
        provider.instancesLaunched(), spotNodesLaunched, partialGangsBilled + provider.partialGangInstances(), orphans,
        waits.size(), median, max, idleSeconds / 3600, provider.instanceSeconds() / 3600, provider.billedDollars(),
        requeues, cycles, Duration.between(start, lastEnd), finished, events);
  }
}
