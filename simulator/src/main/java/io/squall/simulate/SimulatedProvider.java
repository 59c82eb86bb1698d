package io.squall.simulate;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import io.squall.core.provider.SpotPrice;
import io.squall.core.provision.FleetActuator;
import io.squall.core.spot.Interruption;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * A cloud in virtual time: a fixed catalogue of offerings, each with a capacity (instances alive
 * at once), spot launches that fail for lack of capacity with a seeded probability, and instances
 * that are PENDING for a boot latency and then RUNNING. Time is read from the injected
 * {@link InstantSource}, randomness from the injected generator, drawn only by spot launch calls
 * in call order: the same seed and the same calls give the same answers.
 *
 * <p>Launches are all or nothing down to {@code minCount}: with room for fewer than the request's
 * nodes but at least {@code minCount}, as many as fit are made and counted as a partial gang.
 * A repeated idempotency token returns the first successful call's instances. Terminating is
 * idempotent. {@link #failNext} makes the next launch call fail as told, for tests. With
 * {@link #reclaims} the cloud also takes spot instances back: each spot instance learns at its
 * launch when its interruption notice will come ({@link #interruption}); the simulation acts on
 * it and terminates the instance by the notice's deadline.
 *
 * <p>Thread safety: every method is synchronized.
 */
public final class SimulatedProvider implements NodeProvider {
  /** What the provider has made, with when it boots. */
  private static final class Made {
    Instance instance;
    final Instant launchedAt;
    final Instant bootsAt;
    /** When the cloud will take it back; null for never. */
    final Interruption reclaim;
    /** When it was terminated; null while it runs. */
    Instant endedAt;

    Made(Instance instance, Instant launchedAt, Instant bootsAt, Interruption reclaim) {
      this.instance = instance;
      this.launchedAt = launchedAt;
      this.bootsAt = bootsAt;
      this.reclaim = reclaim;
    }
  }

  private final InstantSource clock;
  private final List<Offering> catalogue;
  private final RandomGenerator random;
  private PriceSchedule prices;
  private final Map<String, Integer> capacity = new HashMap<>();
  private double spotInsufficientCapacityProbability;
  private Duration bootLatency = Duration.ZERO;
  private SpotReclaims reclaims;
  private double publishedInterruptionRate;

  private final Map<String, Made> byId = new TreeMap<>();
  private final Map<String, Made> alive = new TreeMap<>();
  private final Map<String, Integer> aliveByOffering = new HashMap<>();
  private final Map<String, List<Instance>> byToken = new HashMap<>();
  private final Deque<ProviderException> failures = new ArrayDeque<>();
  private long nextId = 1;

  private long launchCalls;
  private long failedLaunchCalls;
  private long instancesLaunched;
  private long partialGangInstances;
  private double endedInstanceSeconds;
  private double endedSpotInstanceSeconds;
  private double endedDollars;

  /**
   * @param clock virtual time: launch times, boot times and billing are read from it
   * @param catalogue what the provider sells (type, zone, capacity type, price); every offering
   *     has unlimited capacity until {@link #capacity} says otherwise
   * @param random the seeded source of spot capacity failures
   */
  public SimulatedProvider(InstantSource clock, List<Offering> catalogue, RandomGenerator random) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.random = Objects.requireNonNull(random, "random");
    List<Offering> sorted = new ArrayList<>(catalogue);
    sorted.sort(Comparator.comparing(Offering::instanceType).thenComparing(Offering::zone)
        .thenComparing(Offering::capacityType));
    this.catalogue = List.copyOf(sorted);
    this.prices = PriceSchedule.fixed(this.catalogue);
  }

  /** Charges and lists the catalogue's offerings at these prices over time (by default, the catalogue's for ever). */
  public synchronized SimulatedProvider prices(PriceSchedule schedule) {
    for (Offering o : catalogue) {
      schedule.at(o.key(), Instant.EPOCH); // each offering is priced, or this says which is not
    }
    this.prices = schedule;
    return this;
  }

  /** At most {@code maxAlive} instances of this offering (its {@link Offering#key()}) alive at once. */
  public synchronized SimulatedProvider capacity(Offering offering, int maxAlive) {
    if (maxAlive < 0) {
      throw new IllegalArgumentException("capacity of " + offering.key() + " must be >= 0");
    }
    capacity.put(offering.key(), maxAlive);
    return this;
  }

  /** The chance, 0 to 1, that a spot launch call fails with insufficient capacity although there is room. */
  public synchronized SimulatedProvider spotInsufficientCapacityProbability(double p) {
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("probability must be 0..1, not " + p);
    }
    this.spotInsufficientCapacityProbability = p;
    return this;
  }

  /** How long an instance is PENDING after its launch before it is RUNNING (its agent registered). */
  public synchronized SimulatedProvider bootLatency(Duration latency) {
    if (latency.isNegative()) {
      throw new IllegalArgumentException("boot latency must be >= 0");
    }
    this.bootLatency = latency;
    return this;
  }

  /** How long an instance is PENDING after its launch (what {@link #bootLatency(Duration)} set). */
  public synchronized Duration bootLatency() {
    return bootLatency;
  }

  /**
   * The interruption rate the provider publishes for its spot offerings, per node-hour (what
   * {@link #interruptionsPerNodeHour(Offering)} answers; 0 by default). It says nothing of the
   * reclaims the cloud actually makes ({@link #reclaims}).
   */
  public synchronized SimulatedProvider publishedInterruptionRate(double perNodeHour) {
    if (!(perNodeHour >= 0) || Double.isInfinite(perNodeHour)) {
      throw new IllegalArgumentException("published interruption rate must be >= 0, not " + perNodeHour);
    }
    this.publishedInterruptionRate = perNodeHour;
    return this;
  }

  /** The published rate for spot offerings; 0 for on-demand ones. */
  @Override
  public synchronized double interruptionsPerNodeHour(Offering offering) {
    return offering.capacityType() == CapacityType.SPOT ? publishedInterruptionRate : 0;
  }

  /** Spot instances are taken back as {@code reclaims} says (asked once per spot instance, at its launch). */
  public synchronized SimulatedProvider reclaims(SpotReclaims reclaims) {
    this.reclaims = Objects.requireNonNull(reclaims, "reclaims");
    return this;
  }

  /** The next launch call fails with {@code failure} (queued: several calls fail in turn). */
  public synchronized void failNext(ProviderException failure) {
    failures.add(Objects.requireNonNull(failure, "failure"));
  }

  @Override
  public String name() {
    return "simulated";
  }

  @Override
  public synchronized List<Offering> offerings(List<String> instanceTypes) {
    List<Offering> out = new ArrayList<>();
    for (Offering o : catalogue) {
      if (instanceTypes.contains(o.instanceType())) {
        Integer cap = capacity.get(o.key());
        Offering now = new Offering(o.instanceType(), o.zone(), o.capacityType(), prices.at(o.key(), clock.instant()),
            o.availability());
        out.add(cap != null && cap == 0 ? now.withAvailability(Availability.UNAVAILABLE) : now);
      }
    }
    return out;
  }

  @Override
  public synchronized List<Instance> launch(LaunchRequest request) {
    launchCalls++;
    List<Instance> earlier = byToken.get(request.idempotencyToken());
    if (earlier != null) {
      return earlier;
    }
    ProviderException failure = failures.poll();
    if (failure != null) {
      failedLaunchCalls++;
      throw failure;
    }
    Offering offering = catalogued(request.offering());
    if (offering == null) {
      failedLaunchCalls++;
      throw new ProviderException(ProviderException.Kind.INVALID, "InvalidParameterValue: "
          + request.offering().key() + " is not offered");
    }
    int room = room(offering);
    boolean spotShort = offering.capacityType() == CapacityType.SPOT && spotInsufficientCapacityProbability > 0
        && random.nextDouble() < spotInsufficientCapacityProbability;
    if (spotShort || room < request.minCount()) {
      failedLaunchCalls++;
      throw new ProviderException(ProviderException.Kind.INSUFFICIENT_CAPACITY, "InsufficientInstanceCapacity: "
          + "not enough " + offering.instanceType() + " " + offering.capacityType() + " capacity in "
          + offering.zone() + " for " + request.minCount() + " instances" + (spotShort ? "" : " (" + room + " left)"));
    }
    int count = Math.min(room, request.count());
    Instant now = clock.instant();
    List<Instance> made = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      NodeLaunch n = request.nodes().get(i);
      String id = String.format(Locale.ROOT, "sim-%08d", nextId++);
      Instance instance = new Instance(id, n.node().name(), request.cluster(), request.partition(),
          request.placementGroup(), request.idempotencyToken(), offering, InstanceState.PENDING);
      Interruption reclaim = reclaims != null && offering.capacityType() == CapacityType.SPOT
          ? reclaims.notice(instance, now) : null;
      Made m = new Made(instance, now, now.plus(bootLatency), reclaim);
      byId.put(id, m);
      alive.put(id, m);
      made.add(instance);
    }
    aliveByOffering.merge(offering.key(), count, Integer::sum);
    instancesLaunched += count;
    if (count < request.count()) {
      partialGangInstances += count;
    }
    List<Instance> answer = List.copyOf(made);
    byToken.put(request.idempotencyToken(), answer);
    return answer;
  }

  private Offering catalogued(Offering asked) {
    for (Offering o : catalogue) {
      if (o.key().equals(asked.key())) {
        return o;
      }
    }
    return null;
  }

  private int room(Offering offering) {
    Integer cap = capacity.get(offering.key());
    return cap == null ? Integer.MAX_VALUE : Math.max(0, cap - aliveByOffering.getOrDefault(offering.key(), 0));
  }

  @Override
  public synchronized void terminate(Instance instance) {
    Made m = alive.remove(instance.id());
    if (m == null) {
      return;
    }
    Instant now = clock.instant();
    m.instance = withState(m.instance, InstanceState.TERMINATED);
    m.endedAt = now;
    aliveByOffering.merge(m.instance.offering().key(), -1, Integer::sum);
    endedInstanceSeconds += seconds(m.launchedAt, now);
    if (m.instance.offering().capacityType() == CapacityType.SPOT) {
      endedSpotInstanceSeconds += seconds(m.launchedAt, now);
    }
    endedDollars += prices.dollars(m.instance.offering().key(), m.launchedAt, now);
  }

  @Override
  public synchronized List<Instance> list(String cluster) {
    Instant now = clock.instant();
    List<Instance> out = new ArrayList<>();
    for (Made m : alive.values()) {
      if (m.instance.cluster().equals(cluster)) {
        out.add(current(m, now));
      }
    }
    out.sort(Comparator.comparing(Instance::nodeName).thenComparing(Instance::id));
    return out;
  }

  @Override
  public synchronized List<SpotPrice> spotPrices(List<String> instanceTypes) {
    Instant now = clock.instant();
    List<SpotPrice> out = new ArrayList<>();
    for (Offering o : catalogue) {
      if (o.capacityType() == CapacityType.SPOT && instanceTypes.contains(o.instanceType())) {
        out.add(new SpotPrice(o.instanceType(), o.zone(), prices.at(o.key(), now), prices.since(o.key(), now)));
      }
    }
    return out;
  }

  /** Nothing to release: the simulated cloud keeps its instances, as a real one does. */
  @Override
  public void close() {}

  // ---------------------------------------------------------------- what the simulation reads

  /** When this instance boots (or booted); null for an id the provider never made. */
  public synchronized Instant bootTime(String instanceId) {
    Made m = byId.get(instanceId);
    return m == null ? null : m.bootsAt;
  }

  /**
   * The interruption notice the cloud will give this instance (its node, instance id, notice
   * instant and deadline), or null when it will not take it back or never made it.
   */
  public synchronized Interruption interruption(String instanceId) {
    Made m = byId.get(instanceId);
    return m == null ? null : m.reclaim;
  }

  /** Launch calls made, successful, failed and repeated alike. */
  public synchronized long launchCalls() {
    return launchCalls;
  }

  public synchronized long failedLaunchCalls() {
    return failedLaunchCalls;
  }

  /** Instances made by launch calls (repeats of a token make none). */
  public synchronized long instancesLaunched() {
    return instancesLaunched;
  }

  /**
   * Instances made by launch calls that made fewer instances than the call asked for (possible
   * only with minCount below the count), counted per call.
   */
  public synchronized long partialGangInstances() {
    return partialGangInstances;
  }

  /** Instance-seconds billed up to now: terminated instances in full, live ones up to the clock. */
  public synchronized double instanceSeconds() {
    Instant now = clock.instant();
    double s = endedInstanceSeconds;
    for (Made m : alive.values()) {
      s += seconds(m.launchedAt, now);
    }
    return s;
  }

  /** Spot instance-seconds billed up to now, as {@link #instanceSeconds}. */
  public synchronized double spotInstanceSeconds() {
    Instant now = clock.instant();
    double s = endedSpotInstanceSeconds;
    for (Made m : alive.values()) {
      if (m.instance.offering().capacityType() == CapacityType.SPOT) {
        s += seconds(m.launchedAt, now);
      }
    }
    return s;
  }

  /** US dollars billed up to now at each instance's offering's prices in force (per second, as EC2 bills). */
  public synchronized double billedDollars() {
    Instant now = clock.instant();
    double d = endedDollars;
    for (Made m : alive.values()) {
      d += prices.dollars(m.instance.offering().key(), m.launchedAt, now);
    }
    return d;
  }

  /**
   * One instance's billing: from its launch to its termination (or the clock, while it runs).
   *
   * @param node the node it was made for
   */
  public record Billing(String node, Offering offering, Instant launched, Instant ended) {}

  /** Every instance made, with its billing period, by instance id. */
  public synchronized List<Billing> billings() {
    Instant now = clock.instant();
    List<Billing> out = new ArrayList<>();
    for (Made m : byId.values()) {
      out.add(new Billing(m.instance.nodeName(), m.instance.offering(), m.launchedAt,
          m.endedAt == null ? now : m.endedAt));
    }
    return out;
  }

  /**
   * When the controller, watching this cloud, next learns a price: at a change, or by the time it
   * has listed the offerings again after one ({@link FleetActuator#OFFERINGS_FRESH_FOR}); null
   * when no price changes after {@code now}.
   */
  public synchronized Instant nextPriceLearnt(Instant now) {
    Instant last = prices.lastChange(now);
    Instant relisted = last == null ? null : last.plus(FleetActuator.OFFERINGS_FRESH_FOR);
    Instant next = prices.nextChange(now);
    return relisted != null && relisted.isAfter(now) && (next == null || relisted.isBefore(next)) ? relisted : next;
  }

  /**
   * What one node of the cheapest spot offering of {@code instanceTypes} costs from {@code from} to
   * {@code to}, the cheapest taken at each instant, in US dollars; 0 when none is sold as spot.
   */
  public synchronized double cheapestSpotDollars(Collection<String> instanceTypes, Instant from, Instant to) {
    return prices.cheapestDollars(catalogue.stream().filter(o -> o.capacityType() == CapacityType.SPOT
        && instanceTypes.contains(o.instanceType())).map(Offering::key).toList(), from, to);
  }

  private Instance current(Made m, Instant now) {
    return now.isBefore(m.bootsAt) ? m.instance : withState(m.instance, InstanceState.RUNNING);
  }

  private static Instance withState(Instance i, InstanceState state) {
    return new Instance(i.id(), i.nodeName(), i.cluster(), i.partition(), i.placementGroup(), i.launchToken(),
        i.offering(), state);
  }

  private static double seconds(Instant from, Instant to) {
    return Duration.between(from, to).toMillis() / 1000.0;
  }
}
