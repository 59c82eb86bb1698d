package io.squall.providers.gcp;

import com.google.api.gax.rpc.ApiException;
import com.google.cloud.compute.v1.AggregatedListInstancesRequest;
import com.google.cloud.compute.v1.BulkInsertInstanceRequest;
import com.google.cloud.compute.v1.DeleteInstanceRequest;
import com.google.cloud.compute.v1.InstancesScopedList;
import com.google.cloud.compute.v1.Operation;
import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import io.squall.core.provider.ProviderException.Kind;
import io.squall.core.provider.SpotPrice;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Google Compute Engine as a {@link NodeProvider}: launches are zonal {@code instances.bulkInsert}
 * calls (count = node count, minCount = the request's minCount, a gang's size: at least minCount
 * or nothing), spot or standard, in a compact placement policy, labelled with the cluster and
 * launch token and started by a {@code startup-script} that runs the agent; {@code list} is an
 * aggregated list filtered on the cluster label.
 *
 * <p>Prices come from {@link GcpSettings#prices()} (list prices; the Compute API has none).
 * Calls go out once (gax retries are off): the caller owns retries. Thread-safe.
 */
public final class GcpProvider implements NodeProvider {
  /** The provider's name in configuration and logs. */
  public static final String NAME = "gcp";

  private static final Comparator<Offering> OFFERING_ORDER = Comparator.comparing(Offering::instanceType)
      .thenComparing(Offering::zone).thenComparing(Offering::capacityType);
  private static final Comparator<Instance> INSTANCE_ORDER =
      Comparator.comparing(Instance::nodeName, Comparator.nullsLast(Comparator.naturalOrder())).thenComparing(Instance::id);

  private final GcpSettings settings;
  private final GceClients clients;
  private final GceOperations operations;
  private final PlacementPolicies placementPolicies;
  private final BulkInsertRequests bulkInserts;
  /** Whether a zone sells a machine type ("type/zone"): this hardly changes, so it is asked once. */
  private final Map<String, Boolean> sold = new ConcurrentHashMap<>();
  private final Instant pricesSince = Instant.now();

  /**
   * Creates the Compute clients (REST transport, the settings' endpoint and credentials or
   * Application Default Credentials).
   *
   * @throws ProviderException of kind INVALID when the clients cannot be made (no credentials, ...)
   */
  public GcpProvider(GcpSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clients = GceClients.create(settings);
    this.operations = new GceOperations(clients, settings.project(), settings.operationTimeout());
    this.placementPolicies = new PlacementPolicies(clients, operations, settings);
    this.bulkInserts = new BulkInsertRequests(settings);
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * A SPOT and an ON_DEMAND (GCE STANDARD) offering per configured zone that has the machine type
   * ({@code machineTypes.get}; 404 means it does not), priced from the price table (0 when unknown).
   */
  @Override
  public List<Offering> offerings(List<String> instanceTypes) {
    List<Offering> offerings = new ArrayList<>();
    for (String type : new TreeSet<>(instanceTypes)) {
      MachinePrice price = settings.price(type);
      for (String zone : settings.zones()) {
        if (sells(zone, type)) {
          offerings.add(new Offering(type, zone, CapacityType.SPOT, price.spot(), Availability.AVAILABLE));
          offerings.add(new Offering(type, zone, CapacityType.ON_DEMAND, price.onDemand(), Availability.AVAILABLE));
        }
      }
    }
    offerings.sort(OFFERING_ORDER);
    return offerings;
  }

  private boolean sells(String zone, String type) {
    String key = type + "/" + zone;
    Boolean known = sold.get(key);
    if (known != null) {
      return known;
    }
    boolean sells;
    try {
      clients.machineTypes.get(settings.project(), zone, type);
      sells = true;
    } catch (ApiException e) {
      ProviderException p = GceErrors.fromApi("get machine type " + type + " in " + zone, e);
      if (p.kind() != Kind.NOT_FOUND) {
        throw p;
      }
      sells = false;
    }
    sold.put(key, sells);
    return sells;
  }

  /**
   * One {@code bulkInsert} in the offering's zone with {@code requestId} derived from the
   * idempotency token (GCE answers a repeat with the first operation), after making sure the
   * compact placement policy exists; waits for the operation, then reads the instances back in
   * request order (one {@code get} each). Node names must be GCE instance names ({@code INVALID}
   * otherwise). A token whose instances no longer number {@code minCount} fails {@code INVALID}
   * and deletes the rest.
   */
  @Override
  public List<Instance> launch(LaunchRequest request) {
    List<String> names = instanceNames(request);
    String zone = request.offering().zone();
    String action = "launch " + request.idempotencyToken() + " (" + names.size() + " x "
        + request.offering().instanceType() + " " + request.offering().capacityType() + " in " + zone + ")";
    String policy = request.placementGroup() == null ? null
        : placementPolicies.ensureCompact(request.cluster(), request.placementGroup());
    BulkInsertInstanceRequest bulk = bulkInserts.build(request, names, policy);
    Operation op;
    try {
      op = clients.instances.bulkInsertCallable().call(bulk);
    } catch (ApiException e) {
      throw GceErrors.fromApi(action, e);
    }
    op = operations.awaitZonal(action, zone, op);
    ProviderException failed = GceErrors.fromOperation(action, op);
    if (failed != null) {
      if (GceErrors.hasCode(op, "RESOURCE_ALREADY_EXISTS")) {
        // A repeat after GCE forgot the requestId finds its own instances: they are the answer.
        List<Instance> mine = readBack(names, zone, action);
        if (mine.size() >= request.minCount()
            && mine.stream().allMatch(i -> request.idempotencyToken().equals(i.launchToken()))) {
          return mine;
        }
      }
      throw failed;
    }
    List<Instance> made = readBack(names, zone, action);
    if (made.size() < request.minCount()) {
      // A repeat of a launch whose instances have since been deleted (or preempted at once): GCE
      // answers the requestId with the first, successful operation, yet fewer than minCount
      // exist. All or nothing: what is left goes too.
      ProviderException gone = new ProviderException(Kind.INVALID, action + ": only " + made.size() + " of at least "
          + request.minCount() + " instances exist; the token was used before, launch with a new token");
      for (Instance i : made) {
        terminate(i);
      }
      throw gone;
    }
    return made;
  }

  private static List<String> instanceNames(LaunchRequest request) {
    List<String> names = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (NodeLaunch n : request.nodes()) {
      String name = GceNames.instanceName(n.node().name());
      if (!seen.add(name)) {
        throw new ProviderException(Kind.INVALID, "gcp: launch " + request.idempotencyToken() + ": node " + name + " twice");
      }
      names.add(name);
    }
    return names;
  }

  private List<Instance> readBack(List<String> names, String zone, String action) {
    List<Instance> found = new ArrayList<>();
    for (String name : names) {
      try {
        found.add(GceInstances.toInstance(clients.instances.get(settings.project(), zone, name), settings));
      } catch (ApiException e) {
        ProviderException p = GceErrors.fromApi(action + ": get " + name, e);
        if (p.kind() != Kind.NOT_FOUND) {
          throw p;
        }
      }
    }
    return found;
  }

  /**
   * {@code instances.delete} of the instance (id = instance name, zone from its offering, else
   * every configured zone), waiting for the operation so that {@link #list} no longer shows it.
   * An instance that is already gone counts as done.
   */
  @Override
  public void terminate(Instance instance) {
    List<String> zones = instance.offering() != null ? List.of(instance.offering().zone()) : settings.zones();
    for (String zone : zones) {
      delete(zone, instance.id());
    }
  }

  private void delete(String zone, String name) {
    String action = "delete instance " + name + " in " + zone;
    Operation op;
    try {
      op = clients.instances.deleteCallable().call(DeleteInstanceRequest.newBuilder()
          .setProject(settings.project()).setZone(zone).setInstance(name).build());
    } catch (ApiException e) {
      ProviderException p = GceErrors.fromApi(action, e);
      if (p.kind() == Kind.NOT_FOUND) {
        return;
      }
      throw p;
    }
    op = operations.awaitZonal(action, zone, op);
    ProviderException failed = GceErrors.fromOperation(action, op);
    if (failed != null && failed.kind() != Kind.NOT_FOUND) {
      throw failed;
    }
  }

  /**
   * {@code instances.aggregatedList} filtered on {@code labels.squall-cluster}, in every zone of
   * the project; instances whose exact cluster (metadata) differs are left out. Sorted by node
   * name then id.
   */
  @Override
  public List<Instance> list(String cluster) {
    AggregatedListInstancesRequest request = AggregatedListInstancesRequest.newBuilder()
        .setProject(settings.project())
        .setFilter("labels." + GceLabels.CLUSTER + " = \"" + GceNames.labelValue(cluster) + "\"")
        .build();
    List<Instance> found = new ArrayList<>();
    try {
      for (Map.Entry<String, InstancesScopedList> scope : clients.instances.aggregatedList(request).iterateAll()) {
        for (com.google.cloud.compute.v1.Instance gce : scope.getValue().getInstancesList()) {
          Instance i = GceInstances.toInstance(gce, settings);
          if (cluster.equals(i.cluster())) {
            found.add(i);
          }
        }
      }
    } catch (ApiException e) {
      throw GceErrors.fromApi("list cluster " + cluster, e);
    }
    found.sort(INSTANCE_ORDER);
    return found;
  }

  /**
   * The price table's spot price of each type in each configured zone that sells it (GCE spot
   * prices are list prices that change at most monthly, not a market), leaving out types whose
   * spot price is unknown.
   */
  @Override
  public List<SpotPrice> spotPrices(List<String> instanceTypes) {
    List<SpotPrice> prices = new ArrayList<>();
    for (Offering o : offerings(instanceTypes)) {
      if (o.capacityType() == CapacityType.SPOT && o.pricePerHour() > 0) {
        prices.add(new SpotPrice(o.instanceType(), o.zone(), o.pricePerHour(), pricesSince));
      }
    }
    return prices;
  }

  /** Closes the clients; instances keep running (reconciliation owns them). */
  @Override
  public void close() {
    clients.close();
  }
}
