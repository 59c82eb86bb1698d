package io.squall.api.fleet;

import io.squall.api.agents.AgentCredentials;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.jobs.JobLifecycle;
import io.squall.api.metrics.SquallMetrics;
import io.squall.api.money.BudgetWatch;
import io.squall.api.state.NodeOccupancy;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.spot.CheckpointedProgress;
import io.squall.api.state.StoredJob;
import io.squall.api.store.InstanceBillRepository;
import io.squall.api.store.InstanceBillRow;
import io.squall.api.store.InstanceRepository;
import io.squall.api.store.InstanceRow;
import io.squall.api.store.LaunchIntentRepository;
import io.squall.api.store.LaunchIntentRow;
import io.squall.api.store.PriceRepository;
import io.squall.api.store.PriceRow;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.NodeState;
import io.squall.core.money.PricePoint;
import io.squall.core.money.PriceSeries;
import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.Offering;
import io.squall.core.model.Job;
import io.squall.core.model.Partition;
import io.squall.core.provision.FleetLedger;
import io.squall.core.provision.JobPurchase;
import io.squall.core.provision.PowerAction;
import io.squall.core.provision.PurchaseRules;
import io.squall.core.sbatch.TimeLimit;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.TreeMap;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's side of the fleet engine: node and job changes through the state writer,
 * instances and launch intents in the database, each change committed before the method returns.
 */
@Singleton
public final class StoredFleetLedger implements FleetLedger {
  private static final Logger LOG = LoggerFactory.getLogger(StoredFleetLedger.class);

  private final ClusterLayout layout;
  private final SquallConfig config;
  private final StateWriter writer;
  private final JobLifecycle lifecycle;
  private final LaunchIntentRepository intents;
  private final InstanceRepository instances;
  private final PriceRepository prices;
  private final InstanceBillRepository bills;
  private final AgentCredentials credentials;
  private final SquallMetrics metrics;
  /** Lazily: budgets read the state this ledger's writes change, not the other way round. */
  private final Provider<BudgetWatch> budgets;
  private final CheckpointedProgress progress;
  private final InstantSource clock;
  private volatile String controllerUrl;
  private final EndingMachines ending;

  public StoredFleetLedger(ClusterLayout layout, SquallConfig config, StateWriter writer, JobLifecycle lifecycle,
      LaunchIntentRepository intents, InstanceRepository instances, PriceRepository prices,
      InstanceBillRepository bills, AgentCredentials credentials, SquallMetrics metrics,
      Provider<BudgetWatch> budgets, CheckpointedProgress progress, InstantSource clock, EndingMachines ending) {
    this.ending = ending;
    this.budgets = budgets;
    this.clock = clock;
    this.progress = progress;
    this.bills = bills;
    this.layout = layout;
    this.config = config;
    this.writer = writer;
    this.lifecycle = lifecycle;
    this.intents = intents;
    this.instances = instances;
    this.prices = prices;
    this.credentials = credentials;
    this.metrics = metrics;
  }

  /** Where launched agents reach this controller; known once its server listens. */
  void controllerUrl(String url) {
    this.controllerUrl = url;
  }

  @Override
  public List<FleetNode> nodes() {
    NodeOccupancy occupancy = NodeOccupancy.of(writer.state());
    List<FleetNode> out = new ArrayList<>();
    for (NodeStatus n : writer.state().nodes()) {
      if (layout.isElastic(n.name())) {
        out.add(new FleetNode(n.name(), layout.partitionsOf(n.name()).get(0), n.node().placementGroup(), n.state(),
            occupancy.jobsOn(n.name()).stream().sorted().toList(), n.node().zone()));
      }
    }
    return out;
  }

  @Override
  public NodeLaunch nodeLaunch(String node) {
    return new NodeLaunch(layout.node(node), controllerUrl, credentials.forLaunch(node));
  }

  @Override
  public void launchIntended(PowerAction.Launch l, Instant now) {
    intents.save(new LaunchIntentRow(l.idempotencyToken(), l.partition(), Hostlist.compress(l.nodes()),
        l.offering().key(), l.providerPlacementGroup(), "PENDING", null, now, now));
    // Each job's history says what its nodes were bought as, and why (price, rework, finance's rules).
    writer.write(b -> {
      Set<JobKey> told = new TreeSet<>();
      for (String node : l.nodes()) {
        for (StoredJob j : b.jobsHolding(node)) {
          if (j.job().state() == JobState.CONFIGURING && told.add(j.key())) {
            b.event(j.key(), JobState.CONFIGURING, clip("nodes launched as " + l.why()));
          }
        }
      }
      return null;
    });
  }

  @Override
  public void launchEnded(PowerAction.Launch l, List<Instance> made, String failure, Instant now) {
    metrics.launchCalled();
    if (failure == null) {
      finish(l.idempotencyToken(), "LAUNCHED", made.size() + " instances", now);
      LOG.info("launched {} as {} in {}", Hostlist.compress(l.nodes()), l.offering().key(), l.providerPlacementGroup());
    } else {
      finish(l.idempotencyToken(), "FAILED", failure, now);
      LOG.warn("launch of {} as {} failed: {}", Hostlist.compress(l.nodes()), l.offering().key(), failure);
    }
  }

  /** Marks a launch intent done (LAUNCHED, FAILED, DROPPED) with what happened. */
  void finish(String token, String state, String detail, Instant now) {
    String text = detail == null || detail.length() <= 2000 ? detail : detail.substring(0, 2000);
    intents.findById(token).ifPresent(i -> intents.update(new LaunchIntentRow(i.token(), i.partitionName(), i.nodes(),
        i.offering(), i.placementGroup(), state, text, i.created(), now)));
  }

  @Override
  public void instanceMade(Instance i, Instant now) {
    machine(i.nodeName(), i.offering());
    billFrom(i, now);
    Optional<InstanceRow> recorded = instances.findById(i.nodeName());
    if (recorded.isPresent() && recorded.get().instanceId().equals(i.id())) {
      return; // adopted after a restart: already recorded
    }
    Offering o = i.offering();
    InstanceRow row = new InstanceRow(i.nodeName(), i.id(), i.launchToken(), o.instanceType(), o.zone(),
        o.capacityType().name(), o.pricePerHour(), now, null);
    // A machine that died while no controller ran is replaced: the node's row now names the new one.
    if (recorded.isPresent()) {
      instances.update(row);
    } else {
      instances.save(row);
    }
  }

  @Override
  public Optional<Instance> instanceOf(String node) {
    return instances.findById(node).map(row -> new Instance(row.instanceId(), node, config.getClusterName(), null,
        null, row.launchToken(), offeringOf(row), InstanceState.RUNNING));
  }

  private static Offering offeringOf(InstanceRow row) {
    return new Offering(row.instanceType(), row.zone(), CapacityType.valueOf(row.capacityType()), row.pricePerHour(),
        Availability.AVAILABLE);
  }

  /**
   * Begins the instance's bill, unless it has one (adopted after a restart). A bill of the node
   * still open names a machine that died while no controller ran, gone by now at the latest.
   */
  private void billFrom(Instance i, Instant now) {
    if (bills.existsById(i.id())) {
      return;
    }
    for (InstanceBillRow open : bills.findByNodeNameAndGoneIsNull(i.nodeName())) {
      bills.update(open.goneAt(now));
    }
    Offering o = i.offering();
    bills.save(new InstanceBillRow(i.id(), i.nodeName(), layout.partitionsOf(i.nodeName()).get(0), o.instanceType(),
        o.zone(), o.capacityType().name(), o.pricePerHour(), layout.node(i.nodeName()).gpus(), now, null));
  }

  @Override
  public void instanceGone(String node, Instance instance, Instant now) {
    // Before the node loses its machine in the state, so that CompletingRuns never sees it with neither.
    ending.terminated(node, instance.id());
    bills.findById(instance.id()).filter(b -> b.gone() == null).ifPresent(b -> bills.update(b.goneAt(now)));
    instances.findById(node).filter(row -> row.instanceId().equals(instance.id())).ifPresent(instances::delete);
    machine(node, null);
  }

  /**
   * Tells the scheduler where the node's machine runs (a gang's nodes must share a zone) and what
   * it was bought as (spot-only and on-demand-only jobs keep to their kind); kept in memory only.
   */
  private void machine(String node, Offering offering) {
    String zone = offering == null ? null : offering.zone();
    CapacityType type = offering == null ? null : offering.capacityType();
    writer.write(b -> {
      NodeStatus n = b.node(node);
      if (n != null && (!Objects.equals(n.node().zone(), zone) || n.node().capacityType() != type)) {
        b.update(new NodeStatus(n.node().withMachine(zone, type), n.reason(), n.address(), n.lastHeartbeat(),
            n.version()), false);
      }
      return null;
    }).join();
  }

  @Override
  public void resume(String node, String reason) {
    writer.write(b -> {
      NodeStatus n = b.node(node);
      if (n.state() == NodeState.CLOUD) {
        b.update(n.withState(NodeState.POWERING_UP, reason), true);
      }
      return null;
    }).join();
  }

  @Override
  public void move(String node, String reason) {
    writer.write(b -> {
      NodeStatus n = b.node(node);
      b.update(new NodeStatus(n.node().withState(NodeState.POWERING_UP), reason, null, n.lastHeartbeat(), n.version()),
          true);
      return null;
    }).join();
    LOG.info("node {} moves: {}", node, reason);
  }

  @Override
  public boolean beginPowerDown(String node, String reason) {
    return writer.write(b -> {
      NodeStatus n = b.node(node);
      if (n.state() != NodeState.IDLE || !b.jobsHolding(node).isEmpty()) {
        return false; // a job arrived since the plan was made
      }
      b.update(new NodeStatus(n.node().withState(NodeState.POWERING_DOWN), reason, null, n.lastHeartbeat(),
          n.version()), true);
      return true;
    }).join();
  }

  @Override
  public void poweredDown(List<String> nodes, String reason) {
    writer.write(b -> {
      for (String node : nodes) {
        NodeStatus n = b.node(node);
        b.update(new NodeStatus(n.node().withState(NodeState.CLOUD), reason, null, n.lastHeartbeat(), n.version()),
            true);
        for (StoredJob j : b.jobsHolding(node)) {
          lifecycle.nodeFailed(b, j, "node " + node + " " + reason + ": its machine is gone");
        }
      }
      return null;
    }).join();
  }

  @Override
  public void release(List<String> nodes, String reason) {
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
  }

  @Override
  public void waiting(List<String> nodes, String reason) {
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

  /**
   * Finance's rules for the jobs waiting for nodes to boot (only their launches are decided): the
   * QOS's capacity and caps, the account's caps, spot only past a soft budget, and what a deadline
   * needs now. A job's checkpointed progress is the time it held nodes up to its latest checkpoint,
   * less one changeover per run (the boot); none without a checkpoint. An interruption is taken to
   * cost a changeover: jobs checkpoint when signalled.
   */
  @Override
  public Map<String, JobPurchase> purchases() {
    Set<String> spotOnly = budgets.get().spotOnlyAccounts();
    PurchaseRules rules = layout.purchaseRules();
    Instant now = clock.instant();
    Map<String, JobPurchase> out = new TreeMap<>();
    for (StoredJob j : writer.state().holdingJobs()) { // not every pending job: only these wait for a launch
      Job job = j.job();
      if (job.state() != JobState.CONFIGURING || job.partition() == null) {
        continue;
      }
      Duration changeover = layout.changeover(job.partition());
      Instant deadline = job.request().timing().deadline();
      Duration work = Duration.ZERO;
      Duration done = Duration.ZERO;
      int restartsLeft = Integer.MAX_VALUE;
      if (deadline != null) {
        Partition p = layout.partitions().stream().filter(x -> x.name().equals(job.partition())).findFirst().orElse(null);
        int limit = p == null ? TimeLimit.UNLIMITED : p.timeLimitMinutes(job.request().timing().timeLimitMinutes());
        // Without a time limit the job's work is unknown: as if it needed its whole window.
        work = limit == TimeLimit.UNLIMITED ? Duration.between(job.submitTime(), deadline) : Duration.ofMinutes(limit);
        done = progress.checkpointed(j.key().toString(), job.partition(), changeover);
        restartsLeft = layout.checkpointPolicy(job.partition()).drainRules().maxRestarts()
            - progress.interruptions(j.key().toString());
      }
      JobPurchase purchase = rules.forJob(new PurchaseRules.JobFacts(j.key().toString(), job.account(), job.qos(),
          job.submitTime(), deadline, work, done, changeover, changeover.toMillis() / 3_600_000.0, restartsLeft), now,
          spotOnly);
      if (!purchase.equals(JobPurchase.PARTITION.withRework(purchase.reworkHours()))) {
        out.put(j.key().toString(), purchase);
      }
    }
    return out;
  }

  @Override
  public void warn(String message) {
    LOG.warn(message);
  }

  /** Ends the offering's open price (found by its open end, not its start, which the database rounds) and adds the new one. */
  @Override
  public void priceChanged(PriceSeries.Change change) {
    if (change.ended() != null) {
      prices.findByOfferingAndValidToIsNull(change.ended().offering()).ifPresent(r -> prices.update(
          new PriceRow(r.id(), r.offering(), r.usdPerHour(), r.validFrom(), change.ended().to())));
    }
    PricePoint begun = change.begun();
    prices.save(new PriceRow(null, begun.offering(), begun.usdPerHour(), begun.from(), null));
  }

  /** Fits a job event's reason column (2,000 characters). */
  private static String clip(String text) {
    return text.length() <= 2000 ? text : text.substring(0, 1997) + "...";
  }
}
