package io.squall.core.provision;

import io.squall.core.model.NodeState;
import io.squall.core.money.PriceSeries;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The elastic fleet, one engine for the controller and the simulator: each {@link #tick} observes
 * the elastic nodes, lets the {@link PowerPlanner} decide, and carries its actions out. A launch
 * is recorded as an intent before the provider is called; a failed one is learnt from (the
 * {@link OfferingBook}, the nodes' backoff) and, when another offering may do, followed by the
 * next plan in the same tick. Idle nodes are given back after their suspend time, nodes that did
 * not come up are released (DOWN, their jobs requeued, their instances terminated) and powered
 * down after {@link #DOWN_FOR}. Each list of offerings adds to the {@link PriceSeries} of prices
 * in force, every change told to the ledger.
 *
 * <p>What it remembers of a node between ticks (since when it is in its state, whether it was
 * launched, attempts and backoff) is not stored: a controller restart starts the
 * timers afresh, and {@link #adopted} tells it of the instances reconciliation kept.
 *
 * <p>Not thread-safe: one thread calls every method (the controller's fleet thread, or the
 * simulation loop). Time comes only from the {@code now} arguments.
 */
public final class FleetActuator {
  /**
   * How long a released node stays DOWN (so sinfo shows why it went) before it is powered down
   * to CLOUD.
   */
  public static final Duration DOWN_FOR = Duration.ofSeconds(5);
  /** How long a list of offerings is used before the provider is asked again. */
  public static final Duration OFFERINGS_FRESH_FOR = Duration.ofMinutes(5);

  /** What the actuator remembers of a node between ticks. */
  private static final class Track {
    final String partition;
    NodeState state;
    List<String> jobs;
    /** While the node is idle: the jobs that held it last. */
    List<String> leftBy = List.of();
    Instant since;
    boolean launched;
    /** What its machine was bought as, while it has one (made by a call, or adopted after a restart). */
    Offering offering;
    int attempts;
    Instant retryAt;

    Track(String partition, NodeState state, List<String> jobs, Instant since) {
      this.partition = partition;
      this.state = state;
      this.jobs = jobs;
      this.since = since;
    }

    /** The actuator changed the node itself: its timer starts now, not at the next observation. */
    void changed(NodeState to, Instant now) {
      state = to;
      jobs = List.of();
      leftBy = List.of();
      since = now;
    }

    void reset() {
      launched = false;
      offering = null;
      attempts = 0;
      retryAt = null;
    }
  }

  private final String cluster;
  private final Map<String, CapacityPolicy> policies;
  private final NodeProvider provider;
  private final FleetLedger ledger;
  private final PowerPlanner planner;
  private final OfferingBook book = new OfferingBook();
  /**
   * By node name; looked up for every node at every tick, and only ever walked for the earliest of
   * its instants and sums of whole milliseconds, which no order changes.
   */
  private final Map<String, Track> tracks = new HashMap<>();
  private final Map<String, List<Offering>> offerings = new TreeMap<>();
  private final PriceSeries prices;
  private final InterruptionRates rates = new InterruptionRates();
  private Instant offeringsAt;
  private Instant countedAt;
  /** The last plan the last tick carried out; null before the first tick. */
  private PowerPlan lastPlan;

  /** With no prices known yet. */
  public FleetActuator(String cluster, Map<String, CapacityPolicy> policies, NodeProvider provider,
      FleetLedger ledger) {
    this(cluster, policies, provider, ledger, new PriceSeries());
  }

  /**
   * @param cluster this cluster's name (tags, placement group names, idempotency tokens)
   * @param policies the policy of each elastic partition
   * @param prices the prices in force so far (after a restart, as stored); the actuator adds what
   *     each list of offerings says, and tells the ledger of every change
   */
  public FleetActuator(String cluster, Map<String, CapacityPolicy> policies, NodeProvider provider,
      FleetLedger ledger, PriceSeries prices) {
    this.prices = prices;
    this.cluster = cluster;
    this.policies = Map.copyOf(policies);
    this.provider = provider;
    this.ledger = ledger;
    this.planner = new PowerPlanner(cluster);
  }

  /** The prices in force as listed so far (the same thread as the ticks may read it). */
  public PriceSeries prices() {
    return prices;
  }

  /** Observes, plans and carries the plan out (at most {@link PowerPlanner#MAX_PLANS_PER_TICK} plans). */
  public void tick(Instant now) {
    refreshOfferings(now);
    countSpotTime(now);
    lastPlan = planner.planAndApply(now, () -> observe(now), policies, offerings, book, ledger.purchases(),
        o -> rates.perNodeHour(o, provider.interruptionsPerNodeHour(o)), a -> apply(a, now));
  }

  /**
   * The earliest instant at which a tick may decide something without any change from outside
   * (a suspend time, a resume timeout, a DOWN node's time, the end of a backoff); while nodes wait
   * for a launch call, also when the last plan said it could launch them or decide otherwise
   * ({@link PowerPlan#reviewAt()}: a batch window, an offering no longer left alone,
   * on-demand-after) and when the offerings are listed again; {@code now} when that plan acted, as
   * its actions changed the nodes it saw. Null when no node waits for anything. From what the last
   * tick observed.
   */
  public Instant nextDecision(Instant now) {
    Instant next = null;
    boolean awaitingCall = false;
    for (Track t : tracks.values()) {
      CapacityPolicy policy = policies.get(t.partition);
      Instant timeout = t.since.plus(policy.resumeTimeout());
      Instant at = switch (t.state) {
        case POWERING_UP -> {
          boolean backingOff = !t.launched && t.retryAt != null && t.retryAt.isAfter(now);
          awaitingCall |= !t.launched && !backingOff;
          yield backingOff ? earlier(t.retryAt, timeout) : timeout;
        }
        case IDLE -> t.jobs.isEmpty() ? t.since.plus(policy.suspendTime()) : null;
        case DOWN -> t.since.plus(DOWN_FOR);
        case CLOUD, MIXED, ALLOCATED, DRAINING, POWERING_DOWN -> null;
      };
      next = earlier(next, at);
    }
    if (awaitingCall) {
      next = earlier(next, lastPlan == null || !lastPlan.quiet() ? now : lastPlan.reviewAt());
      next = earlier(next, offeringsAt == null ? null : offeringsAt.plus(OFFERINGS_FRESH_FOR));
    }
    return next;
  }

  /** The earlier of two instants, either of which may be null (none). */
  private static Instant earlier(Instant a, Instant b) {
    return a == null || b != null && b.isBefore(a) ? b : a;
  }

  /** After a restart: reconciliation kept this node's instance. */
  public void adopted(String node, Instant now) {
    Track t = track(node, now);
    if (t != null) {
      t.launched = true;
      t.offering = ledger.instanceOf(node).map(Instance::offering).orElse(null);
    }
  }

  /**
   * After a restart: a launch whose intent was recorded but whose outcome was not is called
   * again with the same idempotency token (the provider answers with what the first call made).
   */
  public void retry(PowerAction.Launch launch, Instant now) {
    call(launch, now);
  }

  /**
   * A notice says the node's machine is being reclaimed: a spot offering is short from now on,
   * so it is left alone for its partition's unavailable-for and counts as no spot at all for a
   * replacement (which goes to another zone, or on-demand at once). An on-demand machine that
   * failed says nothing of capacity. {@code why} is the notice in words (it becomes the reason of
   * jobs waiting for capacity).
   */
  public void spotReclaimed(String node, String why, Instant now) {
    Track t = track(node, now);
    if (t == null) {
      return; // no elastic node
    }
    CapacityPolicy policy = policies.get(t.partition);
    ledger.instanceOf(node).filter(i -> i.offering().capacityType() == CapacityType.SPOT).ifPresent(i -> {
      book.markReclaimed(i.offering(), now.plus(policy.unavailableFor()), why);
      rates.interrupted(i.offering());
    });
  }

  /** An interruption took the node's machine: released (DOWN, its jobs requeued, its instance gone). */
  public void machineTaken(String node, String why, Instant now) {
    release(List.of(node), why, now);
  }

  // ---------------------------------------------------------------- observing

  /** Adds the spot machine time since the last tick to each offering's record, for its interruption rate. */
  private void countSpotTime(Instant now) {
    if (countedAt != null && now.isAfter(countedAt)) {
      Duration since = Duration.between(countedAt, now);
      for (Track t : tracks.values()) {
        if (t.offering != null && t.launched && t.state != NodeState.CLOUD && t.state != NodeState.DOWN
            && t.state != NodeState.POWERING_DOWN) {
          rates.ran(t.offering, since);
        }
      }
    }
    countedAt = now;
  }

  private void refreshOfferings(Instant now) {
    if (offeringsAt != null && now.isBefore(offeringsAt.plus(OFFERINGS_FRESH_FOR))) {
      return;
    }
    for (Map.Entry<String, CapacityPolicy> e : new TreeMap<>(policies).entrySet()) {
      try {
        List<Offering> listed = provider.offerings(e.getValue().instanceTypes());
        offerings.put(e.getKey(), listed);
        for (Offering o : listed) {
          prices.observe(o.key(), o.pricePerHour(), now).ifPresent(ledger::priceChanged);
        }
      } catch (ProviderException ex) {
        ledger.warn("partition " + e.getKey() + ": cannot list offerings: " + ex.getMessage());
      }
    }
    offeringsAt = now;
  }

  /**
   * What is remembered of the node; null when it is no elastic node. Before the first tick (a
   * restart's reconciliation) every node is looked up at once, not one ledger read per node.
   */
  private Track track(String node, Instant now) {
    if (!tracks.containsKey(node)) {
      for (FleetLedger.FleetNode n : ledger.nodes()) {
        tracks.computeIfAbsent(n.name(), k -> new Track(n.partition(), n.state(), n.jobs(), now));
      }
    }
    return tracks.get(node);
  }

  /** The elastic nodes as the planner sees them; a change of state or of the jobs holding it restarts a node's timer. */
  private List<ElasticNode> observe(Instant now) {
    List<FleetLedger.FleetNode> nodes = ledger.nodes();
    List<ElasticNode> out = new ArrayList<>(nodes.size());
    List<String> downLongEnough = new ArrayList<>();
    for (FleetLedger.FleetNode n : nodes) {
      Track t = tracks.computeIfAbsent(n.name(), k -> new Track(n.partition(), n.state(), n.jobs(), now));
      if (t.state != n.state() || !t.jobs.equals(n.jobs())) {
        // Up and left by its jobs (a requeued gang, say): remembered until it is used or given back.
        t.leftBy = n.state() == NodeState.IDLE && n.jobs().isEmpty() ? (t.jobs.isEmpty() ? t.leftBy : t.jobs)
            : List.of();
        t.state = n.state();
        t.jobs = n.jobs();
        t.since = now;
      }
      if (n.state() == NodeState.CLOUD) {
        t.reset();
      }
      if (n.state() == NodeState.DOWN && !now.isBefore(t.since.plus(DOWN_FOR))) {
        downLongEnough.add(n.name());
        continue;
      }
      out.add(new ElasticNode(n.name(), n.partition(), n.placementGroup(), n.state(), t.since, n.jobs(), t.launched,
          n.zone(), t.attempts, t.retryAt, t.leftBy));
    }
    for (String node : downLongEnough) {
      powerDown(List.of(node), "back to CLOUD after DOWN", now);
    }
    return out;
  }

  // ---------------------------------------------------------------- acting

  /** @return whether a launch failed so that another offering is worth trying at once */
  private boolean apply(PowerAction action, Instant now) {
    if (action instanceof PowerAction.Launch l) {
      ProviderException failure = launch(l, now);
      return failure != null && failure.kind().tryAnotherOffering();
    } else if (action instanceof PowerAction.Gang g) {
      return launch(g, now);
    } else if (action instanceof PowerAction.Move m) {
      for (String node : m.nodes()) {
        terminate(List.of(node), now);
        ledger.move(node, m.reason());
        Track t = track(node, now);
        if (t != null) {
          t.state = NodeState.POWERING_UP; // its jobs still hold it
          t.since = now;
        }
      }
    } else if (action instanceof PowerAction.Resume r) {
      ledger.resume(r.node(), "resumed to keep MinNodes powered");
      changed(r.node(), NodeState.POWERING_UP, now);
    } else if (action instanceof PowerAction.Suspend s) {
      if (ledger.beginPowerDown(s.node(), s.reason())) {
        powerDown(List.of(s.node()), "powered down: " + s.reason(), now);
      }
    } else if (action instanceof PowerAction.Release r) {
      release(r.nodes(), r.reason(), now);
    } else if (action instanceof PowerAction.Wait w) {
      ledger.waiting(w.nodes(), "waiting for capacity: " + w.reason());
    }
    return false;
  }

  /** Records the intent, then calls; returns the failure, or null when the call made the instances. */
  private ProviderException launch(PowerAction.Launch l, Instant now) {
    ledger.launchIntended(l, now); // durable before the call: a crash from here on is reconciled on start
    return call(l, now);
  }

  /**
   * A gang across placement groups: one call per group. When one fails, the instances the
   * calls before it made are terminated at once, so no part of the gang stays billed while it
   * cannot run; the gang is tried again whole (elsewhere, when the failure was capacity).
   *
   * @return whether a call failed so that another offering is worth trying at once
   */
  private boolean launch(PowerAction.Gang g, Instant now) {
    List<String> launched = new ArrayList<>();
    for (PowerAction.Launch l : g.calls()) {
      ProviderException failure = launch(l, now);
      if (failure != null) {
        terminate(launched, now);
        backOff(launched, policies.get(l.partition()), failure, false, now);
        return failure.kind().tryAnotherOffering();
      }
      launched.addAll(l.nodes());
    }
    return false;
  }

  /** Calls the provider; returns the failure (learnt from), or null when the call made the instances. */
  private ProviderException call(PowerAction.Launch l, Instant now) {
    List<NodeLaunch> nodes = new ArrayList<>();
    for (String name : l.nodes()) {
      Track t = track(name, now);
      if (t != null) {
        t.launched = true;
      }
      nodes.add(ledger.nodeLaunch(name));
    }
    LaunchRequest request = new LaunchRequest(cluster, l.partition(), nodes, nodes.size(), l.offering(),
        l.providerPlacementGroup(), Map.of("squall:squall-placement-group",
        l.placementGroup() == null ? "" : l.placementGroup()), l.idempotencyToken());
    List<Instance> made;
    try {
      made = provider.launch(request);
    } catch (ProviderException e) {
      ledger.launchEnded(l, List.of(), e.kind() + ": " + e.getMessage(), now);
      CapacityPolicy policy = policies.get(l.partition());
      book.recordFailure(l.offering(), e, now, policy);
      // A failure another offering may not have (capacity, price, quota) is the fallback
      // working, not an attempt used up: every allowed offering is tried before a release.
      backOff(l.nodes(), policy, e, !e.kind().tryAnotherOffering(), now);
      return e;
    }
    for (Instance i : made) {
      ledger.instanceMade(i, now);
      Track t = track(i.nodeName(), now);
      if (t != null) {
        t.offering = l.offering();
      }
    }
    ledger.launchEnded(l, made, null, now);
    return null;
  }

  /** The nodes wait for another call, after the backoff the failure asks for; one attempt more with {@code countAttempt}. */
  private void backOff(List<String> nodes, CapacityPolicy policy, ProviderException failure, boolean countAttempt,
      Instant now) {
    for (String name : nodes) {
      Track t = track(name, now);
      if (t != null) {
        t.launched = false;
        t.offering = null;
        if (countAttempt) {
          t.attempts++;
        }
        t.retryAt = PowerPlanner.retryAt(policy, t.attempts, failure, now);
      }
    }
    ledger.waiting(nodes, "launch failed: " + failure.getMessage());
  }

  /** Nodes that did not come up, or whose machine was taken: DOWN, their jobs requeued, their instances gone. */
  private void release(List<String> nodes, String reason, Instant now) {
    ledger.release(nodes, reason);
    nodes.forEach(node -> changed(node, NodeState.DOWN, now));
    terminate(nodes, now);
  }

  /** Terminates the nodes' instances, then marks them CLOUD: powered down, free to resume. */
  private void powerDown(List<String> nodes, String reason, Instant now) {
    terminate(nodes, now);
    ledger.poweredDown(nodes, reason);
    nodes.forEach(node -> changed(node, NodeState.CLOUD, now)); // the next observation resets what it remembers
  }

  private void changed(String node, NodeState to, Instant now) {
    Track t = track(node, now);
    if (t != null) {
      t.changed(to, now);
    }
  }

  private void terminate(List<String> nodes, Instant now) {
    for (String node : nodes) {
      ledger.instanceOf(node).ifPresent(i -> {
        provider.terminate(i);
        ledger.instanceGone(node, i, now);
      });
      Track t = tracks.get(node);
      if (t != null) {
        t.launched = false;
        t.offering = null;
      }
    }
  }
}
