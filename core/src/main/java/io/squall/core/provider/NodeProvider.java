package io.squall.core.provider;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Brings machines into existence and takes them away. The core decides which nodes it wants,
 * of which offering and when; a provider only makes it so. Implementations live in
 * {@code providers/*} (aws, gcp, local) and the simulator module (virtual time).
 *
 * <p>Every method may throw {@link ProviderException}; its {@link ProviderException.Kind} says
 * whether to retry, try another offering or give up. Providers do not retry on their own: the
 * caller wraps them in one retry, rate-limit and circuit-breaker policy.
 *
 * <p>Thread safety: implementations must be safe for calls from several threads.
 */
public interface NodeProvider extends AutoCloseable {
  /** A short name for logs and configuration: {@code local}, {@code aws}, {@code gcp}, {@code simulated}. */
  String name();

  /**
   * The offerings of these instance types in the provider's zones: one per type, zone and
   * capacity type the provider sells, with its current price and availability, sorted by
   * instance type, zone, capacity type. Types the provider does not know are left out.
   */
  List<Offering> offerings(List<String> instanceTypes);

  /**
   * Starts the request's nodes, each with its agent set to register with the controller, and
   * returns one instance per started node (in request order). All or nothing down to
   * {@code minCount}: when fewer than {@code minCount} can be had, nothing is left running and
   * the call fails with {@link ProviderException.Kind#INSUFFICIENT_CAPACITY} (or the limit hit).
   * Idempotent per {@code idempotencyToken}: a repeat returns the instances of the first call.
   * A node is usable only once its agent has registered.
   */
  List<Instance> launch(LaunchRequest request);

  /**
   * Terminates an instance and everything on it. Idempotent: an instance that is already gone
   * (or never existed) counts as done, never as an error. Returns once the provider accepted it.
   */
  void terminate(Instance instance);

  /**
   * The cluster's instances that are not terminated (tagged {@code squall:cluster=cluster}),
   * sorted by node name then id: the source of truth for reconciliation after a crash.
   */
  List<Instance> list(String cluster);

  /**
   * The latest spot price of each of these instance types in each zone that sells them as spot,
   * sorted by type then zone. Empty for providers without spot.
   */
  List<SpotPrice> spotPrices(List<String> instanceTypes);

  /**
   * Where these instances sit in the provider's network: for each instance id, the network nodes
   * above it, closest to the root first, so that instances sharing the last one share a switch
   * (EC2's {@code DescribeInstanceTopology}). Only ids that were asked for, and only those the
   * provider knows the layout of (some instance types have none, a pending instance none yet):
   * the rest are left out. The default, for providers that cannot tell, leaves out all of them.
   */
  default Map<String, List<String>> networkNodes(Collection<String> instanceIds) {
    return Map.of();
  }

  /**
   * How often the provider says it takes back machines of a spot offering, in interruptions per
   * node-hour (AWS publishes a bucket per type and region in its Spot Instance Advisor). The fleet
   * starts from it and corrects it with what it sees. 0 for on-demand offerings, and by default:
   * the provider publishes nothing. Asked for every offering each time the fleet ranks them, so
   * answered from what the provider holds, without calling the cloud.
   */
  default double interruptionsPerNodeHour(Offering offering) {
    return 0;
  }

  /**
   * Releases the provider's clients and threads. Providers whose machines belong to this
   * process (local) stop them; cloud providers leave instances running (reconciliation owns them).
   */
  @Override
  void close();
}
