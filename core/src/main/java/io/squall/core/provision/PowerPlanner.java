package io.squall.core.provision;

import io.squall.core.model.NodeState;
import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Decides, for the elastic partitions, which nodes to launch together and as what, which idle
 * nodes to give back and which resumes to abandon: Slurm's power saving (SuspendTime,
 * ResumeTimeout, MinNodes) with a cloud's choices (offerings, spot or on-demand, capacity
 * fallback). A pure function of its inputs: the same nodes, offerings, book and instant give the
 * same actions, in the production controller and in the simulator alike.
 *
 * <p>The scheduler resumes nodes by allocating powered-down ones to a job (they become
 * POWERING_UP); this planner turns those into launch calls. A placement group's waiting nodes
 * go in one call, once the oldest has waited the batch window, so a burst of submissions
 * becomes few calls and a gang is launched whole, all or nothing.
 */
public final class PowerPlanner {
  /**
   * How many times one tick may plan again after a launch failed in a way another offering may
   * not (capacity, price): enough to walk a partition's types and zones, bounded so that a
   * provider failing everything cannot keep the loop busy.
   */
  public static final int MAX_PLANS_PER_TICK = 8;
  /**
   * How long a released node stays DOWN (so sinfo shows why it went) before it is powered down
   * to CLOUD; the controller's fleet and the simulator both keep it.
   */
  public static final Duration DOWN_FOR = Duration.ofSeconds(5);

  /** Carries out one action for {@link #planAndApply}. */
  @FunctionalInterface
  public interface Actuator {
    /**
     * @return true when the action was a launch call that failed with a failure another
     *     offering may not have ({@link ProviderException.Kind#tryAnotherOffering()}), so a
     *     new plan at the same instant may launch the nodes elsewhere
     */
    boolean apply(PowerAction action);
  }

  private final String cluster;

  /** @param cluster this cluster's name, part of every provider placement group's name */
  public PowerPlanner(String cluster) {
    this.cluster = cluster;
  }

  /**
   * @param nodes every node of the elastic partitions
   * @param policies the policy of each elastic partition
   * @param offerings what the provider offers for each partition's instance types
   */
  public List<PowerAction> plan(Instant now, List<ElasticNode> nodes, Map<String, CapacityPolicy> policies,
      Map<String, List<Offering>> offerings, OfferingBook book) {
    Map<String, List<ElasticNode>> byPartition = new TreeMap<>();
    for (ElasticNode n : nodes) {
      if (policies.containsKey(n.partition())) {
        byPartition.computeIfAbsent(n.partition(), k -> new ArrayList<>()).add(n);
      }
    }
    List<PowerAction> out = new ArrayList<>();
    for (Map.Entry<String, List<ElasticNode>> e : byPartition.entrySet()) {
      List<ElasticNode> inPartition = new ArrayList<>(e.getValue());
      inPartition.sort(Comparator.comparing(ElasticNode::name));
      CapacityPolicy policy = policies.get(e.getKey());
      List<ElasticNode> live = release(now, inPartition, policy, book, out);
      suspendAndKeepMinimum(now, live, policy, out);
      launch(now, e.getKey(), live, policy, offerings.getOrDefault(e.getKey(), List.of()), book, out);
    }
    return out;
  }

  /**
   * Plans and carries out the plan; while a launch call failed for capacity or price (recorded
   * in the book by the actuator, the nodes ready again), plans again at the same instant, so the
   * fallback offering is called in the same tick instead of the next one. At most
   * {@link #MAX_PLANS_PER_TICK} plans.
   *
   * @param observe the elastic nodes as they are now (after the previous plan's actions)
   */
  public void planAndApply(Instant now, Supplier<List<ElasticNode>> observe, Map<String, CapacityPolicy> policies,
      Map<String, List<Offering>> offerings, OfferingBook book, Actuator actuator) {
    for (int round = 0; round < MAX_PLANS_PER_TICK; round++) {
      boolean fallBack = false;
      for (PowerAction a : plan(now, observe.get(), policies, offerings, book)) {
        fallBack |= actuator.apply(a);
      }
      if (!fallBack) {
        return;
      }
    }
  }

  /** Resumes that ran out of time or attempts are abandoned; returns the nodes left to plan for. */
  private static List<ElasticNode> release(Instant now, List<ElasticNode> nodes, CapacityPolicy policy,
      OfferingBook book, List<PowerAction> out) {
    List<String> late = new ArrayList<>();
    List<String> exhausted = new ArrayList<>();
    List<ElasticNode> live = new ArrayList<>();
    for (ElasticNode n : nodes) {
      if (n.state() == NodeState.POWERING_UP && !now.isBefore(n.since().plus(policy.resumeTimeout()))) {
        late.add(n.name());
      } else if (n.awaitingLaunch() && n.attempts() >= policy.maxLaunchAttempts()) {
        exhausted.add(n.name());
      } else {
        live.add(n);
      }
    }
    if (!late.isEmpty()) {
      out.add(new PowerAction.Release(late, "not up within ResumeTimeout (" + minutes(policy.resumeTimeout()) + ")"));
    }
    if (!exhausted.isEmpty()) {
      out.add(new PowerAction.Release(exhausted, "no launch succeeded in " + policy.maxLaunchAttempts() + " attempts"));
    }
    return live;
  }

  private static void suspendAndKeepMinimum(Instant now, List<ElasticNode> nodes, CapacityPolicy policy,
      List<PowerAction> out) {
    int powered = 0;
    List<ElasticNode> idle = new ArrayList<>();
    List<ElasticNode> down = new ArrayList<>();
    for (ElasticNode n : nodes) {
      switch (n.state()) {
        case POWERING_UP, IDLE, MIXED, ALLOCATED, DRAINING -> powered++;
        case CLOUD -> down.add(n);
        case DOWN, POWERING_DOWN -> { }
      }
      if (n.state() == NodeState.IDLE && !n.busy() && !now.isBefore(n.since().plus(policy.suspendTime()))) {
        idle.add(n);
      }
    }
    // The longest idle go first; the minimum stays powered.
    idle.sort(Comparator.comparing(ElasticNode::since).thenComparing(ElasticNode::name));
    for (ElasticNode n : idle) {
      if (powered <= policy.minNodes()) {
        break;
      }
      out.add(new PowerAction.Suspend(n.name()));
      powered--;
    }
    for (int i = 0; i < down.size() && powered < policy.minNodes(); i++, powered++) {
      out.add(new PowerAction.Resume(down.get(i).name()));
    }
  }

  private void launch(Instant now, String partition, List<ElasticNode> nodes, CapacityPolicy policy,
      List<Offering> offerings, OfferingBook book, List<PowerAction> out) {
    Map<String, List<ElasticNode>> waiting = new TreeMap<>();
    Map<String, String> zoneOfGroup = new TreeMap<>();
    for (ElasticNode n : nodes) {
      String group = n.placementGroup() == null ? "" : n.placementGroup();
      if (n.awaitingLaunch()) {
        waiting.computeIfAbsent(group, k -> new ArrayList<>()).add(n);
      } else if (n.zone() != null && n.state() != NodeState.CLOUD) {
        zoneOfGroup.putIfAbsent(group, n.zone());
      }
    }
    for (Map.Entry<String, List<ElasticNode>> e : waiting.entrySet()) {
      List<ElasticNode> group = e.getValue();
      Instant oldest = group.stream().map(ElasticNode::since).min(Comparator.naturalOrder()).orElseThrow();
      List<ElasticNode> ready = group.stream()
          .filter(n -> n.retryAt() == null || !now.isBefore(n.retryAt()))
          .toList();
      if (ready.isEmpty() || now.isBefore(oldest.plus(policy.batchWindow()))) {
        continue;
      }
      List<String> names = ready.stream().map(ElasticNode::name).toList();
      String zone = zoneOfGroup.get(e.getKey());
      Offering offering = choose(now, oldest, policy, offerings, book, zone);
      if (offering == null) {
        out.add(new PowerAction.Wait(names, whyNone(now, policy, offerings, book, zone)));
        continue;
      }
      int attempt = ready.stream().mapToInt(ElasticNode::attempts).max().orElse(0) + 1;
      String pg = e.getKey().isEmpty() ? null : cluster + "-" + e.getKey() + "-" + offering.zone();
      String token = cluster + "-" + partition + "-" + names.get(0) + "-" + oldest.toEpochMilli() + "-" + attempt;
      out.add(new PowerAction.Launch(partition, e.getKey().isEmpty() ? null : e.getKey(), names, offering, pg, token));
    }
  }

  /**
   * The offering to try next: allowed by the policy (type, zone, capacity type, price cap), not
   * marked unavailable, in the zone the group already runs in if it does; spot before on-demand,
   * then the policy's type order, then price, then the policy's zone order.
   */
  static Offering choose(Instant now, Instant waitingSince, CapacityPolicy policy, List<Offering> offerings,
      OfferingBook book, String zone) {
    return candidates(now, waitingSince, policy, offerings, zone).stream()
        .filter(o -> book.available(o, now))
        .findFirst().orElse(null);
  }

  private static List<Offering> candidates(Instant now, Instant waitingSince, CapacityPolicy policy,
      List<Offering> offerings, String zone) {
    boolean anySpot = offerings.stream().anyMatch(o -> o.capacityType() == CapacityType.SPOT
        && policy.instanceTypes().contains(o.instanceType()));
    boolean onDemandAllowed = switch (policy.spot()) {
      case SPOT -> false;
      case ON_DEMAND -> true;
      case SPOT_THEN_ON_DEMAND -> !anySpot || !now.isBefore(waitingSince.plus(policy.onDemandAfter()));
    };
    List<Offering> out = new ArrayList<>();
    for (Offering o : offerings) {
      boolean capacityOk = o.capacityType() == CapacityType.SPOT ? policy.spot() != SpotPolicy.ON_DEMAND : onDemandAllowed;
      boolean priceOk = o.capacityType() != CapacityType.SPOT || policy.maxSpotPricePerHour() == null
          || o.pricePerHour() <= policy.maxSpotPricePerHour();
      if (capacityOk && priceOk && o.availability() != Availability.UNAVAILABLE
          && policy.instanceTypes().contains(o.instanceType())
          && (policy.zones().isEmpty() || policy.zones().contains(o.zone()))
          && (zone == null || zone.equals(o.zone()))) {
        out.add(o);
      }
    }
    out.sort(Comparator.comparingInt((Offering o) -> o.capacityType() == CapacityType.SPOT ? 0 : 1)
        .thenComparingInt(o -> policy.instanceTypes().indexOf(o.instanceType()))
        .thenComparingDouble(Offering::pricePerHour)
        .thenComparingInt(o -> policy.zones().indexOf(o.zone()))
        .thenComparing(Offering::zone));
    return out;
  }

  /** The pending reason when no offering can be tried: the provider's last words if there are some. */
  private static String whyNone(Instant now, CapacityPolicy policy, List<Offering> offerings, OfferingBook book,
      String zone) {
    for (Offering o : candidates(now, now.minus(policy.onDemandAfter()), policy, offerings, zone)) {
      String why = book.why(o, now);
      if (why != null) {
        return "no capacity: " + o.key() + ": " + why;
      }
    }
    return "no offering of " + policy.instanceTypes() + " allowed by the partition's policy"
        + (zone == null ? "" : " in zone " + zone);
  }

  /**
   * When the nodes of a failed launch call may try again: at once when another offering may work
   * (the failed one is now marked in the book), else after the policy's backoff, doubled per
   * attempt made and capped at {@code unavailableFor}.
   */
  public static Instant retryAt(CapacityPolicy policy, int attemptsMade, ProviderException failure, Instant now) {
    if (failure.kind().tryAnotherOffering()) {
      return now;
    }
    Duration wait = policy.retryBackoff().multipliedBy(1L << Math.min(20, Math.max(0, attemptsMade - 1)));
    return now.plus(wait.compareTo(policy.unavailableFor()) > 0 ? policy.unavailableFor() : wait);
  }

  private static String minutes(Duration d) {
    return d.toSeconds() % 60 == 0 ? d.toMinutes() + " min" : d.toSeconds() + " s";
  }
}
