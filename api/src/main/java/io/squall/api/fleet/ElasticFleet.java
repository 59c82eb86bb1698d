package io.squall.api.fleet;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.metrics.SquallMetrics;
import io.squall.api.simulate.ServiceConfig;
import io.squall.api.spot.InterruptionResponder;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.store.InstanceRepository;
import io.squall.api.store.InstanceRow;
import io.squall.api.store.LaunchIntentRepository;
import io.squall.api.store.LaunchIntentRow;
import io.squall.api.store.PriceRepository;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.NodeState;
import io.squall.core.provider.Instance;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import io.squall.core.provision.FleetActuator;
import io.squall.core.provision.PowerAction;
import io.squall.core.provision.Reconciliation;
import io.squall.core.spot.Interruption;
import jakarta.inject.Provider;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's elastic fleet: the engine ({@link FleetActuator}, shared with the simulator)
 * against the {@link StoredFleetLedger}, ticked by the {@code Ticker}, plus what only a controller
 * that can crash needs: at its first tick, reconciliation of the provider's instances with what
 * was recorded (adopt, terminate orphans, retry or drop unfinished launch intents), and every
 * reconcile interval, instances that vanished without notice and where instances sit in the
 * network. Notices from the drain reach it through an inbox and are handled at its next tick, on
 * the fleet's thread (the ticker's) like everything else here.
 */
@Context
@Requires(notEnv = ServiceConfig.ENVIRONMENT) // squall simulate reads the configuration only
public final class ElasticFleet implements ApplicationEventListener<ServerStartupEvent> {
  private static final Logger LOG = LoggerFactory.getLogger(ElasticFleet.class);

  private final ConcurrentLinkedQueue<Consumer<Instant>> inbox = new ConcurrentLinkedQueue<>();
  private final NodeProvider provider;
  private final ClusterLayout layout;
  private final SquallConfig config;
  private final ControllerUrl controllerUrl;
  private final StateWriter writer;
  private final StoredFleetLedger ledger;
  private final LaunchIntentRepository intents;
  private final InstanceRepository instances;
  private final SquallMetrics metrics;
  /** Lazily: the responder gives machines back through this fleet. */
  private final Provider<InterruptionResponder> interruptions;
  private final FleetActuator actuator;
  private final boolean elastic;
  private volatile boolean started;
  private boolean reconciled;
  private Instant lastCheck;
  /** Instances missing from the provider's last list: gone if still missing from the next. */
  private Set<String> missing = Set.of();
  /** False once the provider refused to tell the network layout for want of permission. */
  private boolean askLayout = true;
  /** The last failure to learn the layout, logged once rather than every reconcile interval. */
  private String layoutFailure;
  private final EndingMachines ending;
  /** When the provider's instances were last listed, for the ending machines among other things. */
  private Instant endingCheck;

  public ElasticFleet(Providers providers, ClusterLayout layout, SquallConfig config, StateWriter writer,
      StoredFleetLedger ledger, LaunchIntentRepository intents, InstanceRepository instances, PriceRepository prices,
      SquallMetrics metrics, Provider<InterruptionResponder> interruptions, EndingMachines ending) {
    this.ending = ending;
    this.provider = providers.provider();
    this.controllerUrl = providers.controllerUrl();
    this.interruptions = interruptions;
    this.layout = layout;
    this.config = config;
    this.writer = writer;
    this.ledger = ledger;
    this.intents = intents;
    this.instances = instances;
    this.metrics = metrics;
    this.elastic = !layout.policies().isEmpty();
    this.actuator = new FleetActuator(config.getClusterName(), layout.policies(), provider, ledger,
        prices.series());
  }

  @Override
  public void onApplicationEvent(ServerStartupEvent event) {
    if (!elastic) {
      return;
    }
    if (provider == null) {
      throw new IllegalStateException("squall.partitions: elastic partitions need a provider (squall.provider)");
    }
    EmbeddedServer server = event.getSource();
    ledger.controllerUrl(controllerUrl.forNodes(server));
    started = true;
  }

  // ---------------------------------------------------------------- reconciliation

  /** Adopts what was ours, terminates orphans, retries or drops unfinished launch intents. */
  private void reconcile(Instant now) {
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
      for (Instance i : r.adopt()) {
        ledger.instanceMade(i, now);
        if (rows.containsKey(i.launchToken())) {
          ledger.finish(i.launchToken(), "LAUNCHED", "adopted after a restart", now);
        }
        actuator.adopted(i.nodeName(), now);
      }
      for (Instance i : r.orphans()) {
        LOG.warn("terminating orphan instance {} (node {}, launch {})", i.id(), i.nodeName(), i.launchToken());
        provider.terminate(i);
        if (i.nodeName() != null) {
          ending.terminated(i.nodeName(), i.id());
          instances.findById(i.nodeName()).filter(row -> row.instanceId().equals(i.id())).ifPresent(instances::delete);
        }
        metrics.orphanTerminated();
      }
      for (String token : r.drop()) {
        ledger.finish(token, "DROPPED", "its nodes no longer wait for it", now);
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
        List<String> nodes = Hostlist.expand(row.nodes());
        LOG.info("retrying launch {} of {} after a restart", token, row.nodes());
        actuator.retry(new PowerAction.Launch(row.partitionName(), layout.node(nodes.get(0)).placementGroup(), nodes,
            // The intent's offering by key: its price is not needed to launch.
            Offering.ofKey(row.offering(), 0), row.placementGroup(), token, "retried after a restart"), now);
      }
    } catch (RuntimeException e) {
      LOG.error("reconciliation with provider {} failed; will plan without it", provider.name(), e);
    }
  }

  /**
   * The ids of the cluster's instances the provider lists (every one it has not terminated),
   * which also settle the machines whose terminate was sent ({@link EndingMachines}); null when
   * the provider cannot be listed now.
   */
  private Set<String> listLive(Instant now) {
    Set<String> live = new TreeSet<>();
    try {
      provider.list(config.getClusterName()).forEach(i -> live.add(i.id()));
    } catch (ProviderException e) {
      LOG.warn("cannot list the provider's instances: {}", e.getMessage());
      return null;
    }
    endingCheck = now;
    ending.listed(live);
    return live;
  }

  /**
   * Recorded instances the provider no longer lists: their machines went without notice. Each
   * becomes an interruption of kind GONE (its jobs are requeued at once). An instance must be
   * missing from two lists in a row, a reconcile interval apart: a new one may simply not be
   * listed yet (EC2's describe calls are eventually consistent).
   */
  private void findVanished(Instant now, Iterable<InstanceRow> recorded) {
    Set<String> live = listLive(now);
    if (live == null) {
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

  // ---------------------------------------------------------------- ticking

  /**
   * Reconciles (the first time), handles the drain's notices, checks for vanished instances and
   * the network layout every reconcile interval, then runs the engine. Called by the ticker from
   * one thread; does nothing until the server listens (launched agents need its address).
   */
  public void tick(Instant now) {
    if (!elastic || !started) {
      return;
    }
    if (!reconciled) {
      reconciled = true;
      reconcile(now);
    }
    for (Consumer<Instant> task = inbox.poll(); task != null; task = inbox.poll()) {
      task.accept(now);
    }
    try {
      if (lastCheck == null || !now.isBefore(lastCheck.plus(config.getReconcileInterval()))) {
        lastCheck = now;
        List<InstanceRow> recorded = new ArrayList<>();
        instances.findAll().forEach(recorded::add);
        findVanished(now, recorded);
        learnNetworkLayout(recorded);
      }
      if (ending.any() && (endingCheck == null || !now.isBefore(endingCheck.plus(EndingMachines.CHECK_EVERY)))) {
        listLive(now);
      }
      actuator.tick(now);
    } catch (RuntimeException e) {
      LOG.warn("elastic fleet tick failed", e);
    }
  }

  /**
   * A notice says the node's machine is being reclaimed ({@link FleetActuator#spotReclaimed}).
   * Handled at the fleet's next tick; returns at once. Thread-safe.
   */
  public void spotReclaimed(String node, String why) {
    inbox.add(now -> {
      try {
        actuator.spotReclaimed(node, why, now);
      } catch (RuntimeException e) {
        LOG.warn("node {}: marking its interrupted offering failed", node, e);
      }
    });
  }

  /**
   * An interruption took the node's machine ({@link FleetActuator#machineTaken}). Handled at the
   * fleet's next tick; returns at once. Thread-safe.
   */
  public void machineTaken(String node, String why) {
    inbox.add(now -> {
      try {
        actuator.machineTaken(node, why, now);
      } catch (RuntimeException e) {
        LOG.warn("node {}: giving up its interrupted machine failed", node, e);
      }
    });
  }
}
