package io.squall.api.fleet;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import io.squall.api.agents.AgentCredentials;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.jobs.JobLifecycle;
import io.squall.api.metrics.SquallMetrics;
import io.squall.api.spot.InterruptionResponder;
import io.squall.api.state.NodeOccupancy;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.api.store.InstanceRepository;
import io.squall.api.store.InstanceRow;
import io.squall.api.store.LaunchIntentRepository;
import io.squall.api.store.LaunchIntentRow;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.NodeState;
import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import io.squall.core.provision.CapacityPolicy;
import io.squall.core.provision.ElasticNode;
import io.squall.core.provision.OfferingBook;
import io.squall.core.provision.PowerAction;
import io.squall.core.provision.PowerPlanner;
import io.squall.core.provision.Reconciliation;
import io.squall.core.spot.Interruption;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Provider;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the power planner's decisions for the elastic partitions: records each launch
 * intent before calling the provider, launches gangs, learns from failures (capacity fallback),
 * gives idle nodes back, releases nodes that did not come up, and on start reconciles the
 * provider's instances with what was recorded so that no instance runs unaccounted.
 *
 * <p>All of it runs on one thread ({@code squall-fleet}); node and job changes go through the
 * state writer like every other change.
 */
@Context
public final class ElasticFleet implements ApplicationEventListener<ServerStartupEvent> {
  private static final Logger LOG = LoggerFactory.getLogger(ElasticFleet.class);
  static final Duration TICK = Duration.ofMillis(250);
  private static final Duration OFFERINGS_FRESH_FOR = Duration.ofMinutes(5);
  /** How long a released or failed node stays DOWN before it can be resumed again. */

  /** What the fleet remembers of a node between ticks (not stored: a restart starts the timers afresh). */
  private static final class Track {
    NodeState state;
    boolean busy;
    Instant since;
    boolean launched;
    String zone;
    int attempts;
    Instant retryAt;

    Track(NodeState state, boolean busy, Instant since) {
      this.state = state;
      this.busy = busy;
      this.since = since;
    }
  }

  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "squall-fleet");
    t.setDaemon(true);
    return t;
  });
  private final NodeProvider provider;
  private final ClusterLayout layout;
  private final SquallConfig config;
  private final StateWriter writer;
  private final JobLifecycle lifecycle;
  private final LaunchIntentRepository intents;
  private final InstanceRepository instances;
  private final InstantSource clock;
  private final SquallMetrics metrics;
  private final AgentCredentials credentials;
  /** Lazily: the responder gives machines back through this fleet. */
  private final Provider<InterruptionResponder> interruptions;
  private Instant lastCheck;
  /** Instances missing from the provider's last list: gone if still missing from the next. */
  private Set<String> missing = Set.of();
  /** False once the provider refused to tell the network layout for want of permission. */
  private boolean askLayout = true;
  /** The last failure to learn the layout, logged once rather than every reconcile interval. */
  private String layoutFailure;
  private final PowerPlanner planner;
  private final OfferingBook book = new OfferingBook();
  private final Map<String, CapacityPolicy> policies;
  private final Map<String, Track> tracks = new HashMap<>();
  private final Map<String, List<Offering>> offerings = new TreeMap<>();
  private Instant offeringsAt;
  private String controllerUrl;

  public ElasticFleet(Providers providers, ClusterLayout layout, SquallConfig config, StateWriter writer,
      JobLifecycle lifecycle, LaunchIntentRepository intents, InstanceRepository instances, InstantSource clock,
      SquallMetrics metrics, AgentCredentials credentials, Provider<InterruptionResponder> interruptions) {
    this.provider = providers.provider();
    this.interruptions = interruptions;
    this.credentials = credentials;
    this.layout = layout;
    this.config = config;
    this.writer = writer;
    this.lifecycle = lifecycle;
    this.intents = intents;
    this.instances = instances;
    this.clock = clock;
    this.metrics = metrics;
    this.planner = new PowerPlanner(config.getClusterName());
    this.policies = layout.policies();
  }

  @Override
  public void onApplicationEvent(ServerStartupEvent event) {
    if (policies.isEmpty()) {
      return;
    }
    if (provider == null) {
      throw new IllegalStateException("squall.partitions: elastic partitions need a provider (squall.provider)");
    }
    EmbeddedServer server = event.getSource();
    controllerUrl = "http://127.0.0.1:" + server.getPort();
    executor.execute(this::reconcile);
    executor.scheduleWithFixedDelay(this::tick, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Lets the current tick finish before the application (and its database) goes: an interrupt
   * could land in the middle of a database write, and H2 closes its file on an interrupted write.
   * A tick stuck on a provider call gets 30 s.
   */
  @PreDestroy
  public void close() throws InterruptedException {
    executor.shutdown();
    if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
      executor.shutdownNow();
    }
  }

  // ---------------------------------------------------------------- reconciliation

  /** Adopts what was ours, terminates orphans, retries or drops unfinished launch intents. */
  private void reconcile() {
    try {
      // A static node's machine (a local agent a restarted controller adopted) is NodeFleet's, not an orphan.
      List<Instance> listed = provider.list(config.getClusterName()).stream()
          .filter(i -> i.nodeName() == null || layout.node(i.nodeName()) == null || layout.isElastic(i.nodeName()))
          .toList();
      Map<String, String> recorded = new HashMap<>();
      for (InstanceRow r : instances.findAll()) {
        recorded.put(r.instanceId(), r.nodeName());
      }
      Map<String, List<String>> pending = new HashMap<>();
      Map<String, LaunchIntentRow> rows = new HashMap<>();
      for (LaunchIntentRow r : intents.findByState("PENDING")) {
        pending.put(r.token(), Hostlist.expand(r.nodes()));
        rows.put(r.token(), r);
      }
      Set<String> wanted = new TreeSet<>();
      for (NodeStatus n : writer.state().nodes()) {
        if (layout.isElastic(n.name()) && n.state() != NodeState.CLOUD && n.state() != NodeState.DOWN) {
          wanted.add(n.name());
        }
      }
      Reconciliation.Result r = Reconciliation.reconcile(listed, recorded, pending, wanted);
      Instant now = clock.instant();
      for (Instance i : r.adopt()) {
        if (!instances.existsById(i.nodeName())) {
          instances.save(row(i, now));
        }
        if (rows.containsKey(i.launchToken())) {
          finish(rows.get(i.launchToken()), "LAUNCHED", "adopted after a restart");
        }
        Track t = track(i.nodeName(), now);
        t.launched = true;
        t.zone = i.offering() == null ? null : i.offering().zone();
      }
      for (Instance i : r.orphans()) {
        LOG.warn("terminating orphan instance {} (node {}, launch {})", i.id(), i.nodeName(), i.launchToken());
        provider.terminate(i);
        if (i.nodeName() != null) {
          instances.findById(i.nodeName()).filter(row -> row.instanceId().equals(i.id())).ifPresent(instances::delete);
        }
        metrics.orphanTerminated();
      }
      for (String token : r.drop()) {
        finish(rows.get(token), "DROPPED", "its nodes no longer wait for it");
      }
      // A recorded instance the provider does not list may only be late to show (EC2's describe
      // calls are eventually consistent): missing from the next list too, an interval from now,
      // it went without notice (findVanished).
      Set<String> live = new TreeSet<>();
      listed.forEach(i -> live.add(i.id()));
      Set<String> unlisted = new TreeSet<>(recorded.keySet());
      unlisted.removeAll(live);
      missing = unlisted;
      lastCheck = now;
      for (String token : r.retry()) {
        LaunchIntentRow row = rows.get(token);
        Offering offering = offeringOf(row.offering());
        List<String> nodes = Hostlist.expand(row.nodes());
        LOG.info("retrying launch {} of {} after a restart", token, row.nodes());
        call(new PowerAction.Launch(row.partitionName(), layout.node(nodes.get(0)).placementGroup(), nodes, offering,
            row.placementGroup(), token), row);
      }
    } catch (RuntimeException e) {
      LOG.error("reconciliation with provider {} failed; will plan without it", provider.name(), e);
    }
  }

  /**
   * Recorded instances the provider no longer lists: their machines went without notice. Each
   * becomes an interruption of kind GONE (its jobs are requeued at once). An instance must be
   * missing from two lists in a row, a reconcile interval apart: a new one may simply not be
   * listed yet (EC2's describe calls are eventually consistent).
   */
  private void findVanished(Instant now, Iterable<InstanceRow> recorded) {
    Set<String> live = new TreeSet<>();
    try {
      provider.list(config.getClusterName()).forEach(i -> live.add(i.id()));
    } catch (ProviderException e) {
      LOG.warn("cannot list the provider's instances to find vanished machines: {}", e.getMessage());
      return;
    }
    Set<String> missingNow = new TreeSet<>();
    for (InstanceRow row : recorded) {
      if (live.contains(row.instanceId())) {
        continue;
      }
      missingNow.add(row.instanceId());
      if (missing.contains(row.instanceId())) {
        interruptions.get().submit(new Interruption(row.nodeName(), row.instanceId(),
            Interruption.Source.RECONCILIATION, Interruption.Kind.GONE, now, now,
            "instance " + row.instanceId() + " is no longer listed by " + provider.name()));
      }
    }
    missing = missingNow;
  }

  /**
   * Records where the instances whose place in the network is not known yet sit, as the provider
   * tells (EC2 answers only once an instance runs, hence the asking again every reconcile
   * interval). Shown in {@code /v1/instances}; a failure costs nothing but the layout.
   */
  private void learnNetworkLayout(Iterable<InstanceRow> recorded) {
    List<InstanceRow> unknown = new ArrayList<>();
    recorded.forEach(r -> {
      if (r.networkNodes() == null) {
        unknown.add(r);
      }
    });
    if (unknown.isEmpty() || !askLayout) {
      return;
    }
    Map<String, List<String>> layout;
    try {
      layout = provider.networkNodes(unknown.stream().map(InstanceRow::instanceId).toList());
    } catch (ProviderException e) {
      if (e.kind() == ProviderException.Kind.UNAUTHORIZED) {
        // Asking again would only feed the provider's circuit breaker.
        askLayout = false;
        LOG.warn("{} will not tell the instances' network layout ({}); grant ec2:DescribeInstanceTopology"
            + " to see it", provider.name(), e.getMessage());
      } else if (!e.getMessage().equals(layoutFailure)) {
        LOG.warn("cannot learn the instances' network layout from {}: {}", provider.name(), e.getMessage());
      }
      layoutFailure = e.getMessage();
      return;
    }
    layoutFailure = null;
    for (InstanceRow row : unknown) {
      List<String> path = layout.get(row.instanceId());
      if (path != null && !path.isEmpty()) {
        instances.update(row.withNetworkPath(path));
      }
    }
  }

  private static InstanceRow row(Instance i, Instant now) {
    Offering o = i.offering();
    return new InstanceRow(i.nodeName(), i.id(), i.launchToken(), o.instanceType(), o.zone(), o.capacityType().name(),
        o.pricePerHour(), now, null);
  }

  private static Offering offeringOf(InstanceRow row) {
    return new Offering(row.instanceType(), row.zone(), CapacityType.valueOf(row.capacityType()), row.pricePerHour(),
        Availability.AVAILABLE);
  }

  /** An offering as recorded in an intent ({@link Offering#key()}); price and availability are not needed to launch. */
  private static Offering offeringOf(String key) {
    String[] parts = key.split("/");
    return new Offering(parts[0], parts[1], CapacityType.valueOf(parts[2]), 0, Availability.AVAILABLE);
  }

  // ---------------------------------------------------------------- planning

  private void tick() {
    try {
      Instant now = clock.instant();
      if (lastCheck == null || !now.isBefore(lastCheck.plus(config.getReconcileInterval()))) {
        lastCheck = now;
        List<InstanceRow> recorded = new ArrayList<>();
        instances.findAll().forEach(recorded::add);
        findVanished(now, recorded);
        learnNetworkLayout(recorded);
      }
      refreshOfferings(now);
      planner.planAndApply(now, () -> observe(now), policies, offerings, book, a -> apply(a, now));
    } catch (RuntimeException e) {
      LOG.warn("elastic fleet tick failed", e);
    }
  }

  private void refreshOfferings(Instant now) {
    if (offeringsAt != null && now.isBefore(offeringsAt.plus(OFFERINGS_FRESH_FOR))) {
      return;
    }
    for (Map.Entry<String, CapacityPolicy> e : policies.entrySet()) {
      try {
        offerings.put(e.getKey(), provider.offerings(e.getValue().instanceTypes()));
      } catch (ProviderException ex) {
        LOG.warn("partition {}: cannot list offerings: {}", e.getKey(), ex.getMessage());
      }
    }
    offeringsAt = now;
  }

  private Track track(String node, Instant now) {
    NodeStatus n = writer.state().node(node);
    return tracks.computeIfAbsent(node, k -> new Track(n.state(), false, now));
  }

  /** The elastic nodes as the planner sees them; state changes restart their timers. */
  private List<ElasticNode> observe(Instant now) {
    NodeOccupancy occupancy = NodeOccupancy.of(writer.state());
    List<ElasticNode> out = new ArrayList<>();
    for (NodeStatus n : writer.state().nodes()) {
      if (!layout.isElastic(n.name())) {
        continue;
      }
      boolean busy = !occupancy.jobsOn(n.name()).isEmpty();
      Track t = track(n.name(), now);
      if (t.state != n.state() || t.busy != busy) {
        t.state = n.state();
        t.busy = busy;
        t.since = now;
      }
      if (n.state() == NodeState.CLOUD) {
        t.launched = false;
        t.zone = null;
        t.attempts = 0;
        t.retryAt = null;
      }
      if (n.state() == NodeState.DOWN && !now.isBefore(t.since.plus(PowerPlanner.DOWN_FOR))) {
        powerDown(List.of(n.name()), "back to CLOUD after DOWN");
        continue;
      }
      out.add(new ElasticNode(n.name(), layout.partitionsOf(n.name()).get(0), n.node().placementGroup(), n.state(),
          t.since, busy, t.launched, t.zone, t.attempts, t.retryAt));
    }
    return out;
  }

  /** @return whether a launch failed so that another offering is worth trying at once */
  private boolean apply(PowerAction action, Instant now) {
    if (action instanceof PowerAction.Launch l) {
      return launch(l, now);
    } else if (action instanceof PowerAction.Resume r) {
      changeNodes(List.of(r.node()), NodeState.CLOUD, NodeState.POWERING_UP, "resumed to keep MinNodes powered");
    } else if (action instanceof PowerAction.Suspend s) {
      suspend(s.node());
    } else if (action instanceof PowerAction.Release r) {
      release(r.nodes(), r.reason());
    } else if (action instanceof PowerAction.Wait w) {
      noteJobs(w.nodes(), "waiting for capacity: " + w.reason());
    }
    return false;
  }

  // ---------------------------------------------------------------- launches

  private boolean launch(PowerAction.Launch l, Instant now) {
    LaunchIntentRow intent = new LaunchIntentRow(l.idempotencyToken(), l.partition(), Hostlist.compress(l.nodes()),
        l.offering().key(), l.providerPlacementGroup(), "PENDING", null, now, now);
    intents.save(intent); // durable before the call: a crash from here on is reconciled on start
    return call(l, intent);
  }

  /** @return whether the call failed so that another offering is worth trying at once */
  private boolean call(PowerAction.Launch l, LaunchIntentRow intent) {
    Instant now = clock.instant();
    for (String node : l.nodes()) {
      track(node, now).launched = true;
    }
    List<NodeLaunch> nodes = new ArrayList<>();
    for (String name : l.nodes()) {
      nodes.add(new NodeLaunch(layout.node(name), controllerUrl, credentials.forLaunch(name)));
    }
    LaunchRequest request = new LaunchRequest(config.getClusterName(), l.partition(), nodes, nodes.size(),
        l.offering(), l.providerPlacementGroup(), Map.of("squall:squall-placement-group",
        l.placementGroup() == null ? "" : l.placementGroup()), l.idempotencyToken());
    metrics.launchCalled();
    try {
      List<Instance> made = provider.launch(request);
      for (Instance i : made) {
        instances.save(row(i, now));
        track(i.nodeName(), now).zone = l.offering().zone();
      }
      finish(intent, "LAUNCHED", made.size() + " instances");
      LOG.info("launched {} as {} in {}", Hostlist.compress(l.nodes()), l.offering().key(), l.providerPlacementGroup());
      return false;
    } catch (ProviderException e) {
      finish(intent, "FAILED", e.kind() + ": " + e.getMessage());
      CapacityPolicy policy = policies.get(l.partition());
      book.recordFailure(l.offering(), e, now, policy);
      for (String node : l.nodes()) {
        Track t = track(node, now);
        t.launched = false;
        t.attempts++;
        t.retryAt = PowerPlanner.retryAt(policy, t.attempts, e, now);
      }
      LOG.warn("launch of {} as {} failed: {}", Hostlist.compress(l.nodes()), l.offering().key(), e.getMessage());
      noteJobs(l.nodes(), "launch failed: " + e.getMessage());
      return e.kind().tryAnotherOffering();
    }
  }

  private void finish(LaunchIntentRow intent, String state, String detail) {
    String text = detail == null || detail.length() <= 2000 ? detail : detail.substring(0, 2000);
    intents.update(new LaunchIntentRow(intent.token(), intent.partitionName(), intent.nodes(), intent.offering(),
        intent.placementGroup(), state, text, intent.created(), clock.instant()));
  }

  // ---------------------------------------------------------------- giving nodes back

  private void suspend(String node) {
    boolean stillIdle = writer.write(b -> {
      NodeStatus n = b.node(node);
      if (n.state() != NodeState.IDLE || !b.jobsHolding(node).isEmpty()) {
        return false; // a job arrived since the plan was made
      }
      b.update(new NodeStatus(n.node().withState(NodeState.POWERING_DOWN), "idle for SuspendTime", null,
          n.lastHeartbeat(), n.version()), true);
      return true;
    }).join();
    if (stillIdle) {
      powerDown(List.of(node), "powered down after SuspendTime");
    }
  }

  /** Nodes that did not come up: DOWN with the reason, their jobs requeued, their instances gone. */
  private void release(List<String> nodes, String reason) {
    writer.write(b -> {
      for (String node : nodes) {
        NodeStatus n = b.node(node);
        b.update(new NodeStatus(n.node().withState(NodeState.DOWN), reason, null, n.lastHeartbeat(), n.version()), true);
        for (StoredJob j : b.jobsHolding(node)) {
          lifecycle.nodeFailed(b, j, "node " + node + " " + reason);
        }
      }
      return null;
    }).join();
    LOG.warn("released {}: {}", Hostlist.compress(nodes), reason);
    terminate(nodes);
  }

  /**
   * A notice says the node's machine is being reclaimed: a spot offering is short from now on,
   * so it is left alone for the partition's unavailable-for (replacements launched during the
   * notice go elsewhere). An on-demand machine that failed says nothing of capacity. Runs on the
   * fleet's thread; returns at once.
   */
  public void spotReclaimed(String node, String why) {
    executor.execute(() -> {
      try {
        instances.findById(node).filter(row -> CapacityType.valueOf(row.capacityType()) == CapacityType.SPOT)
            .ifPresent(row -> book.markUnavailable(offeringOf(row),
                clock.instant().plus(policies.get(layout.partitionsOf(node).get(0)).unavailableFor()),
                "interrupted: " + why));
      } catch (RuntimeException e) {
        LOG.warn("node {}: marking its interrupted offering failed", node, e);
      }
    });
  }

  /**
   * An interruption took the node's machine: the node is released (DOWN with the reason, its
   * instance terminated, back to CLOUD after a while). Runs on the fleet's thread; returns at once.
   */
  public void machineTaken(String node, String why) {
    executor.execute(() -> {
      try {
        release(List.of(node), why);
      } catch (RuntimeException e) {
        LOG.warn("node {}: giving up its interrupted machine failed", node, e);
      }
    });
  }

  /** Terminates the nodes' instances, then marks them CLOUD: powered down, free to resume. */
  private void powerDown(List<String> nodes, String reason) {
    terminate(nodes);
    writer.write(b -> {
      for (String node : nodes) {
        NodeStatus n = b.node(node);
        b.update(new NodeStatus(n.node().withState(NodeState.CLOUD), reason, null, n.lastHeartbeat(), n.version()),
            true);
      }
      return null;
    }).join();
  }

  private void terminate(List<String> nodes) {
    for (String node : nodes) {
      instances.findById(node).ifPresent(row -> {
        provider.terminate(new Instance(row.instanceId(), node, config.getClusterName(), null, null,
            row.launchToken(), offeringOf(row), InstanceState.RUNNING));
        instances.delete(row);
      });
      Track t = tracks.get(node);
      if (t != null) {
        t.launched = false;
        t.zone = null;
      }
    }
  }

  private void changeNodes(List<String> nodes, NodeState from, NodeState to, String reason) {
    writer.write(b -> {
      for (String node : nodes) {
        NodeStatus n = b.node(node);
        if (n.state() == from) {
          b.update(n.withState(to, reason), true);
        }
      }
      return null;
    }).join();
  }

  /** Tells the jobs waiting on these nodes why (their reason, not stored). */
  private void noteJobs(List<String> nodes, String reason) {
    // Most ticks repeat the last reason: only a change is worth a trip through the writer.
    NodeOccupancy occupancy = NodeOccupancy.of(writer.state());
    boolean changed = nodes.stream().flatMap(n -> occupancy.jobsOn(n).stream())
        .map(k -> writer.state().job(JobKey.parse(k)))
        .anyMatch(j -> j != null && j.job().state() == JobState.CONFIGURING && !reason.equals(j.reason()));
    if (!changed) {
      return;
    }
    writer.write(b -> {
      for (String node : nodes) {
        for (StoredJob j : b.jobsHolding(node)) {
          if (j.job().state() == JobState.CONFIGURING && !reason.equals(j.reason())) {
            b.note(j.key(), reason, null);
          }
        }
      }
      return null;
    });
  }

}
