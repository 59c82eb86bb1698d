package io.squall.core.provision;

import io.squall.core.money.PriceSeries;
import io.squall.core.model.NodeState;
import io.squall.core.provider.Instance;
import io.squall.core.provider.NodeLaunch;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Map;

/**
 * What the {@link FleetActuator} reads and changes: the elastic nodes, their instances and the
 * launch intents. The controller backs it with its state writer and database (every change
 * durable), the simulator with memory. Called from the actuator's one thread only; a method
 * returns once its change is in effect (committed, for the controller).
 */
public interface FleetLedger {
  /**
   * One elastic node as it is now.
   *
   * @param placementGroup the Squall placement group; null for none
   * @param jobs the jobs that hold it (running, or waiting for it to boot), in key order: a
   *     change restarts the node's timers, as a new job's wait for it starts afresh
   * @param zone where its machine runs ({@link #instanceMade} tells); null while it has none
   */
  record FleetNode(String name, String partition, String placementGroup, NodeState state, List<String> jobs,
      String zone) {
    public FleetNode {
      jobs = List.copyOf(jobs);
    }
  }

  /** Every node of the elastic partitions, in name order. */
  List<FleetNode> nodes();

  /** What the provider needs to boot the node: its template, the controller's address, its credential. */
  NodeLaunch nodeLaunch(String node);

  /** A launch is about to be called: recorded durably first, so a crash from here on is reconciled. */
  void launchIntended(PowerAction.Launch launch, Instant now);

  /**
   * A launch call (first or retried after a restart) ended.
   *
   * @param made the instances the call made; empty when it failed
   * @param failure the provider's words when it failed; null when it did not
   */
  void launchEnded(PowerAction.Launch launch, List<Instance> made, String failure, Instant now);

  /** The node's instance, made by a launch call or adopted after a restart. */
  void instanceMade(Instance instance, Instant now);

  /** The node's instance; empty when it has none. */
  Optional<Instance> instanceOf(String node);

  /** The node's instance was terminated. */
  void instanceGone(String node, Instance instance, Instant now);

  /** CLOUD → POWERING_UP with no job: kept powered for the partition's minimum. */
  void resume(String node, String reason);

  /**
   * IDLE with no job → POWERING_DOWN, as one change.
   *
   * @return false when a job took the node since the plan was made (nothing changed)
   */
  boolean beginPowerDown(String node, String reason);

  /**
   * The node's instance was terminated so that its gang can move to another zone: POWERING_UP
   * again, waiting for the gang's launch, still held by its jobs.
   */
  void move(String node, String reason);

  /**
   * The nodes' instances are gone: each node CLOUD, powered down and free to resume. A job still
   * holding one (left on a node marked DOWN while its launch's fate was unknown) is requeued: its
   * machine is gone, so no copy of it can be running there any more.
   */
  void poweredDown(List<String> nodes, String reason);

  /**
   * The nodes did not come up (or their machines were taken): each DOWN with the reason, and
   * every job holding one of them requeued as its node failed (or ended NODE_FAIL with
   * {@code --no-requeue}).
   */
  void release(List<String> nodes, String reason);

  /** The jobs waiting for these nodes wait because of {@code reason} (their pending reason). */
  void waiting(List<String> nodes, String reason);

  /**
   * An offering's price changed (or was seen for the first time): keep the change, so the
   * series of prices in force outlives the controller ({@link PriceSeries#of} rebuilds it).
   */
  void priceChanged(PriceSeries.Change change);

  /** Something went wrong that the operator should read (the controller logs it); the fleet goes on. */
  void warn(String message);

  /**
   * Finance's rules for the jobs that hold nodes and have some (a QOS's capacity, a deadline's
   * need now, an account past its soft budget, price caps, the rework an interruption costs), by
   * job key: what their nodes may be bought as. Read once per tick; none by default. The planner
   * reads the rules of the jobs holding nodes that wait for a launch call only: a ledger may leave
   * the others out.
   */
  default Map<String, JobPurchase> purchases() {
    return Map.of();
  }
}
