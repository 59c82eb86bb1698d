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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

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
  public PowerPlan plan(Instant now, List<ElasticNode> nodes, Map<String, CapacityPolicy> policies,
      Map<String, List<Offering>> offerings, OfferingBook book) {
    return plan(now, nodes, policies, offerings, book, Map.of(), o -> 0);
  }

  /**
   * @param purchases finance's rules for the jobs that have some (QOS capacity, deadline, soft
   *     budget, price caps), by job key; a job without one buys what its partition allows
   * @param interruptionRate interruptions per node-hour expected of a spot offering (0 for
   *     on-demand): with a job's rework it ranks offerings by expected cost of useful work
   */
  public PowerPlan plan(Instant now, List<ElasticNode> nodes, Map<String, CapacityPolicy> policies,
      Map<String, List<Offering>> offerings, OfferingBook book, Map<String, JobPurchase> purchases,
      ToDoubleFunction<Offering> interruptionRate) {
    Map<String, List<ElasticNode>> byPartition = new TreeMap<>();
    for (ElasticNode n : nodes) {
      if (policies.containsKey(n.partition())) {
        byPartition.computeIfAbsent(n.partition(), k -> new ArrayList<>()).add(n);
      }
    }
    List<PowerAction> out = new ArrayList<>();
    Review review = new Review(now);
    for (Map.Entry<String, List<ElasticNode>> e : byPartition.entrySet()) {
      List<ElasticNode> inPartition = new ArrayList<>(e.getValue());
      inPartition.sort(Comparator.comparing(ElasticNode::name));
      CapacityPolicy policy = policies.get(e.getKey());
      List<ElasticNode> live = release(now, inPartition, policy, book, out);
      suspendAndKeepMinimum(now, live, policy, out);
      launch(now, e.getKey(), live, policy, offerings.getOrDefault(e.getKey(), List.of()), book, purchases,
          interruptionRate, out, review);
    }
    return new PowerPlan(out, review.at);
  }

  /**
   * Plans and carries out the plan; while a launch call failed for capacity or price (recorded
   * in the book by the actuator, the nodes ready again), plans again at the same instant, so the
   * fallback offering is called in the same tick instead of the next one. At most
   * {@link #MAX_PLANS_PER_TICK} plans.
   *
   * @param observe the elastic nodes as they are now (after the previous plan's actions)
   * @return the last plan carried out
   */
  public PowerPlan planAndApply(Instant now, Supplier<List<ElasticNode>> observe,
      Map<String, CapacityPolicy> policies, Map<String, List<Offering>> offerings, OfferingBook book,
      Actuator actuator) {
    return planAndApply(now, observe, policies, offerings, book, Map.of(), o -> 0, actuator);
  }

  /** As above, with finance's rules per job and the offerings' interruption rates (see {@link #plan}). */
  public PowerPlan planAndApply(Instant now, Supplier<List<ElasticNode>> observe,
      Map<String, CapacityPolicy> policies, Map<String, List<Offering>> offerings, OfferingBook book,
      Map<String, JobPurchase> purchases, ToDoubleFunction<Offering> interruptionRate, Actuator actuator) {
    PowerPlan plan;
    int round = 0;
    boolean fallBack;
    do {
      plan = plan(now, observe.get(), policies, offerings, book, purchases, interruptionRate);
      fallBack = false;
      for (PowerAction a : plan.actions()) {
        fallBack |= actuator.apply(a);
      }
    } while (fallBack && ++round < MAX_PLANS_PER_TICK);
    return plan;
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

  /**
   * Idle nodes are given back after SuspendTime, and at once when the gang that left them (a
   * requeued job) now holds other nodes: they could not join it (another zone or placement
   * group), so they would only be billed idle. MinNodes stay powered.
   */
  private static void suspendAndKeepMinimum(Instant now, List<ElasticNode> nodes, CapacityPolicy policy,
      List<PowerAction> out) {
    int powered = 0;
    // Of the jobs that left idle nodes (a few), those that hold other nodes now.
    Set<String> leftIdle = new HashSet<>();
    for (ElasticNode n : nodes) {
      if (n.state() == NodeState.IDLE && !n.busy()) {
        leftIdle.addAll(n.leftBy());
      }
    }
    Set<String> holding = new HashSet<>();
    if (!leftIdle.isEmpty()) {
      for (ElasticNode n : nodes) {
        for (String job : n.jobs()) {
          if (leftIdle.contains(job)) {
            holding.add(job);
          }
        }
      }
    }
    Map<ElasticNode, String> idle = new TreeMap<>(Comparator.comparing((ElasticNode n) -> n.since())
        .thenComparing(ElasticNode::name)); // the longest idle go first
    List<ElasticNode> down = new ArrayList<>();
    for (ElasticNode n : nodes) {
      switch (n.state()) {
        case POWERING_UP, IDLE, MIXED, ALLOCATED, DRAINING -> powered++;
        case CLOUD -> down.add(n);
        case DOWN, POWERING_DOWN -> { }
      }
      if (n.state() != NodeState.IDLE || n.busy()) {
        continue;
      }
      List<String> movedOn = new ArrayList<>();
      for (String job : n.leftBy()) {
        if (holding.contains(job)) {
          movedOn.add(job);
        }
      }
      if (!movedOn.isEmpty()) {
        idle.put(n, "job " + String.join(", ", movedOn) + " left it and now holds other nodes");
      } else if (!now.isBefore(n.since().plus(policy.suspendTime()))) {
        idle.put(n, "idle for SuspendTime (" + minutes(policy.suspendTime()) + ")");
      }
    }
    for (Map.Entry<ElasticNode, String> e : idle.entrySet()) {
      if (powered <= policy.minNodes()) {
        break;
      }
      out.add(new PowerAction.Suspend(e.getKey().name(), e.getValue()));
      powered--;
    }
    for (int i = 0; i < down.size() && powered < policy.minNodes(); i++, powered++) {
      out.add(new PowerAction.Resume(down.get(i).name()));
    }
  }

  /**
   * Launch units: the waiting nodes that share a placement group or a job (a gang, or gangs
   * batched into one group's call) and the same rules for what to buy. A unit is one decision:
   * one zone and one capacity type for all of it, made once its oldest node has waited the batch
   * window and none of it backs off; one call per placement group ({@link PowerAction.Gang} when
   * there are several).
   *
   * <p>What a unit may buy is what its partition and each of its jobs allow
   * ({@link CapacityPolicy#forJobs}): a job's QOS, deadline or soft budget may narrow it to spot
   * or on-demand, caps of its account and QOS lower the price allowed. A unit whose rules leave no
   * capacity type waits, saying why. Among the offerings allowed, the one with the lowest expected
   * cost of useful work goes first: price per GPU-hour × (1 + expected rework), the rework being
   * the offering's interruptions per node-hour × the gang's nodes × the hours each interruption
   * costs the job.
   *
   * <p>A unit whose placement groups or jobs already have machines running is pinned to their
   * zone, so that no gang runs across zones. When the best offering lies elsewhere (the pinned
   * zone's spot was just reclaimed, say) and the pinned zone offers nothing of the same capacity
   * type now, the unit moves instead of waiting: the machines of its own jobs are terminated and
   * launched with it ({@link PowerAction.Move}), idle ones with no job are given back at once.
   * A machine that runs other work keeps the unit where it is.
   */
  private void launch(Instant now, String partition, List<ElasticNode> nodes, CapacityPolicy partitionPolicy,
      List<Offering> offerings, OfferingBook book, Map<String, JobPurchase> purchases,
      ToDoubleFunction<Offering> interruptionRate, List<PowerAction> out, Review review) {
    // Each job's nodes in the partition, counted once per plan (when a unit is first decided), not
    // once per unit and job.
    Map<String, Integer> nodesOfJob = new HashMap<>();
    for (List<ElasticNode> unit : units(nodes, partitionPolicy, purchases)) {
      // A rule that changes by itself may change the unit or how its nodes group into units.
      unit.forEach(n -> n.jobs().forEach(j -> review.at(purchases.getOrDefault(j, JobPurchase.PARTITION).until())));
      Instant oldest = unit.stream().map(ElasticNode::since).min(Comparator.naturalOrder()).orElseThrow();
      boolean backingOff = unit.stream().anyMatch(n -> n.retryAt() != null && now.isBefore(n.retryAt()));
      if (backingOff || now.isBefore(oldest.plus(partitionPolicy.batchWindow()))) {
        review.at(oldest.plus(partitionPolicy.batchWindow()));
        unit.forEach(n -> review.at(n.retryAt()));
        continue;
      }
      Set<String> jobs = new TreeSet<>();
      Set<String> groups = new TreeSet<>();
      unit.forEach(n -> {
        jobs.addAll(n.jobs());
        groups.add(group(n));
      });
      List<String> names = unit.stream().map(ElasticNode::name).toList();
      List<JobPurchase> rules = jobs.stream().map(j -> purchases.getOrDefault(j, JobPurchase.PARTITION)).toList();
      Optional<CapacityPolicy> forUnit = partitionPolicy.forJobs(rules);
      if (forUnit.isEmpty()) {
        out.add(new PowerAction.Wait(names, reasons(rules) + ", and partition " + partition + " buys "
            + describe(partitionPolicy.spot())));
        continue;
      }
      CapacityPolicy policy = forUnit.get();
      if (nodesOfJob.isEmpty()) {
        nodes.forEach(n -> n.jobs().forEach(j -> nodesOfJob.merge(j, 1, Integer::sum)));
      }
      Rework rework = rework(jobs, rules, nodesOfJob, unit.size(), interruptionRate);
      // Machines already running for the unit's groups or jobs; a draining one is leaving anyway.
      List<ElasticNode> live = nodes.stream().filter(n -> !n.awaitingLaunch() && n.live()
          && n.state() != NodeState.DRAINING
          && (groups.contains(group(n)) || n.jobs().stream().anyMatch(jobs::contains))).toList();
      String pinned = live.isEmpty() ? null : live.get(0).zone();
      Offering best = choose(now, oldest, policy, offerings, book, null, rework);
      Offering inPin = pinned == null ? best : choose(now, oldest, policy, offerings, book, pinned, rework);
      Offering offering = inPin;
      boolean move = false;
      if (pinned != null && best != null && (inPin == null || inPin.capacityType() != best.capacityType())
          && live.stream().allMatch(n -> n.busy() ? jobs.containsAll(n.jobs()) : n.state() == NodeState.IDLE)) {
        offering = best;
        move = true;
      }
      if (offering == null) {
        review.at(book.nextRelease(now));
        if (policy.spot() == SpotPolicy.SPOT_THEN_ON_DEMAND) {
          review.at(oldest.plus(policy.onDemandAfter()));
        }
        String rulesWhy = reasons(rules);
        out.add(new PowerAction.Wait(names, whyNone(now, policy, offerings, book, pinned)
            + (rulesWhy.isEmpty() ? "" : " (" + rulesWhy + ")")));
        continue;
      }
      String why = explain(offering, policy, rework, candidates(now, oldest, policy, offerings, book,
          move ? null : pinned, rework).size(), reasons(rules));
      List<ElasticNode> toLaunch = new ArrayList<>(unit);
      if (move) {
        List<ElasticNode> moving = live.stream().filter(ElasticNode::busy).toList();
        if (!moving.isEmpty()) {
          out.add(new PowerAction.Move(moving.stream().map(ElasticNode::name).toList(),
              "its gang moves to " + offering.key() + ": nothing of its kind in " + pinned + " now"));
        }
        live.stream().filter(n -> !n.busy()).forEach(n -> out.add(new PowerAction.Suspend(n.name(),
            "idle in " + pinned + ", which its placement group leaves")));
        toLaunch.addAll(moving);
      }
      Map<String, List<String>> byGroup = new TreeMap<>();
      toLaunch.stream().sorted(Comparator.comparing(ElasticNode::name))
          .forEach(n -> byGroup.computeIfAbsent(group(n), k -> new ArrayList<>()).add(n.name()));
      List<PowerAction.Launch> calls = new ArrayList<>();
      for (Map.Entry<String, List<String>> e : byGroup.entrySet()) {
        String pg = e.getKey().isEmpty() ? null : cluster + "-" + e.getKey() + "-" + offering.zone();
        // Every decision is a new request, never a retry of an answered one: the offering makes a
        // fallback in the same tick differ, the instant a later call (a capacity failure uses no
        // attempt, so the same offering may well be tried again once it is no longer left alone).
        // Only a restart retries a call, with its recorded token.
        String token = cluster + "-" + partition + "-" + e.getValue().get(0) + "-" + oldest.toEpochMilli() + "-"
            + now.toEpochMilli() + "-" + offering.key();
        calls.add(new PowerAction.Launch(partition, e.getKey().isEmpty() ? null : e.getKey(), e.getValue(), offering,
            pg, token, why));
      }
      out.add(calls.size() == 1 ? calls.get(0) : new PowerAction.Gang(calls));
    }
  }

  /** The earliest instant after the plan's at which a waiting unit could be decided otherwise; null for none. */
  private static final class Review {
    private final Instant now;
    private Instant at;

    Review(Instant now) {
      this.now = now;
    }

    void at(Instant t) {
      if (t != null && t.isAfter(now) && (at == null || t.isBefore(at))) {
        at = t;
      }
    }
  }

  /**
   * What an interruption would cost a unit: the offering's rate × {@code nodes} (a gang of N nodes
   * is interrupted about N times as often) × {@code hours} lost each time (the unit's worst job).
   */
  private record Rework(ToDoubleFunction<Offering> rate, int nodes, double hours) {
    double expected(Offering o) {
      return rate.applyAsDouble(o) * nodes * hours;
    }
  }

  private static Rework rework(Set<String> jobs, List<JobPurchase> rules, Map<String, Integer> nodesOfJob,
      int unitSize, ToDoubleFunction<Offering> rate) {
    int gang = unitSize;
    for (String job : jobs) {
      gang = Math.max(gang, nodesOfJob.getOrDefault(job, 0));
    }
    double hours = rules.stream().mapToDouble(JobPurchase::reworkHours).max().orElse(0);
    return new Rework(rate, gang, hours);
  }

  /** The rules of the unit's jobs that narrowed what it buys, in words; empty when none did. */
  private static String reasons(List<JobPurchase> rules) {
    return String.join("; ", new TreeSet<>(rules.stream().map(JobPurchase::why).filter(w -> !w.isEmpty()).toList()));
  }

  private static String describe(SpotPolicy policy) {
    return switch (policy) {
      case SPOT -> "spot only";
      case ON_DEMAND -> "on-demand only";
      case SPOT_THEN_ON_DEMAND -> "spot, then on-demand";
    };
  }

  /** Why this offering, for the jobs' detail: its price, its expected rework, the rules that applied. */
  private static String explain(Offering o, CapacityPolicy policy, Rework rework, int allowed, String rules) {
    double perGpu = policy.usdPerGpuHour(o);
    double expected = rework.expected(o);
    StringBuilder b = new StringBuilder(o.key()).append(" at ").append(usd(perGpu)).append(" USD per GPU-hour");
    if (expected > 0) {
      // Two significant digits, not fixed decimals: published rates are around 1e-4 per node-hour.
      b.append(String.format(Locale.ROOT, ", %s with expected rework (%.2g interruptions per node-hour x %d nodes"
          + " x %.2f h lost each)", usd(perGpu * (1 + expected)), rework.rate().applyAsDouble(o), rework.nodes(),
          rework.hours()));
    }
    b.append(": the lowest expected cost of useful work of ").append(allowed).append(allowed == 1 ? " offering" : " offerings")
        .append(" allowed now (").append(describe(policy.spot()));
    if (!policy.caps().isNone()) {
      b.append(", caps ").append(policy.caps());
    }
    b.append(')');
    if (!rules.isEmpty()) {
      b.append("; ").append(rules);
    }
    return b.toString();
  }

  private static String usd(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  private static String group(ElasticNode n) {
    return n.placementGroup() == null ? "" : n.placementGroup();
  }

  /**
   * The waiting nodes, in units that share a placement group or a job and buy under the same
   * rules (a group's nodes held by jobs with different rules are decided apart); in order of
   * their first node.
   */
  private static List<List<ElasticNode>> units(List<ElasticNode> nodes, CapacityPolicy policy,
      Map<String, JobPurchase> purchases) {
    Map<String, String> parent = new TreeMap<>();
    List<ElasticNode> waiting = nodes.stream().filter(ElasticNode::awaitingLaunch)
        .sorted(Comparator.comparing(ElasticNode::name)).toList();
    for (ElasticNode n : waiting) {
      List<JobPurchase> rules = n.jobs().stream().map(j -> purchases.getOrDefault(j, JobPurchase.PARTITION)).toList();
      String buys = policy.forJobs(rules).map(p -> p.spot() + "/" + p.onDemandAfter() + "/" + p.caps()).orElse("none");
      union(parent, "node:" + n.name(), "group:" + group(n) + ":" + buys);
      n.jobs().forEach(j -> union(parent, "node:" + n.name(), "job:" + j));
    }
    Map<String, List<ElasticNode>> units = new java.util.LinkedHashMap<>();
    for (ElasticNode n : waiting) {
      units.computeIfAbsent(find(parent, "node:" + n.name()), k -> new ArrayList<>()).add(n);
    }
    return new ArrayList<>(units.values());
  }

  private static String find(Map<String, String> parent, String x) {
    String root = x;
    while (parent.containsKey(root) && !parent.get(root).equals(root)) {
      root = parent.get(root);
    }
    parent.put(x, root);
    return root;
  }

  private static void union(Map<String, String> parent, String a, String b) {
    String ra = find(parent, a);
    String rb = find(parent, b);
    if (!ra.equals(rb)) {
      parent.put(ra.compareTo(rb) < 0 ? rb : ra, ra.compareTo(rb) < 0 ? ra : rb);
    }
  }

  /**
   * The offering to try next: allowed by the policy (type, zone, capacity type, price caps), not
   * marked unavailable, in the zone the group already runs in if it does; the lowest expected
   * cost of useful work first (an unknown price, 0, after every known one), then spot before
   * on-demand, the policy's type order and its zone order.
   */
  private static Offering choose(Instant now, Instant waitingSince, CapacityPolicy policy, List<Offering> offerings,
      OfferingBook book, String zone, Rework rework) {
    return candidates(now, waitingSince, policy, offerings, book, zone, rework).stream()
        .filter(o -> book.available(o, now))
        .findFirst().orElse(null);
  }

  private static List<Offering> candidates(Instant now, Instant waitingSince, CapacityPolicy policy,
      List<Offering> offerings, OfferingBook book, String zone, Rework rework) {
    // on-demand-after is how long a gang waits for spot that exists but fails: when no spot
    // offering could be used at all (none offered, all above the price cap, outside the allowed
    // zones, or being taken back by the cloud right now), on-demand goes at once.
    boolean usableSpot = offerings.stream().anyMatch(o -> o.capacityType() == CapacityType.SPOT
        && allowed(o, policy, zone) && !book.reclaimed(o, now));
    boolean onDemandAllowed = switch (policy.spot()) {
      case SPOT -> false;
      case ON_DEMAND -> true;
      case SPOT_THEN_ON_DEMAND -> !usableSpot || !now.isBefore(waitingSince.plus(policy.onDemandAfter()));
    };
    List<Offering> out = new ArrayList<>();
    for (Offering o : offerings) {
      boolean capacityOk = o.capacityType() == CapacityType.SPOT ? policy.spot() != SpotPolicy.ON_DEMAND : onDemandAllowed;
      if (capacityOk && allowed(o, policy, zone)) {
        out.add(o);
      }
    }
    out.sort(Comparator.comparingDouble((Offering o) -> o.pricePerHour() > 0
            ? policy.usdPerGpuHour(o) * (1 + rework.expected(o)) : Double.POSITIVE_INFINITY)
        .thenComparingInt(o -> o.capacityType() == CapacityType.SPOT ? 0 : 1)
        .thenComparingInt(o -> policy.instanceTypes().indexOf(o.instanceType()))
        .thenComparingInt(o -> policy.zones().indexOf(o.zone()))
        .thenComparing(Offering::zone));
    return out;
  }

  /**
   * Whether the policy allows the offering for a group pinned to {@code zone} (null: none): its
   * type and zone, the price caps, and whether the provider offers it at all.
   */
  private static boolean allowed(Offering o, CapacityPolicy policy, String zone) {
    return policy.priceAllowed(o) && o.availability() != Availability.UNAVAILABLE
        && policy.instanceTypes().contains(o.instanceType())
        && (policy.zones().isEmpty() || policy.zones().contains(o.zone()))
        && (zone == null || zone.equals(o.zone()));
  }

  /** The pending reason when no offering can be tried: the provider's last words if there are some. */
  private static String whyNone(Instant now, CapacityPolicy policy, List<Offering> offerings, OfferingBook book,
      String zone) {
    for (Offering o : candidates(now, now.minus(policy.onDemandAfter()), policy, offerings, book, zone,
        new Rework(x -> 0, 1, 0))) {
      String why = book.why(o, now);
      if (why != null) {
        return "no capacity: " + o.key() + ": " + why;
      }
    }
    return "no offering of " + policy.instanceTypes() + " allowed (" + describe(policy.spot())
        + (policy.caps().isNone() ? "" : ", caps " + policy.caps()) + ")" + (zone == null ? "" : " in zone " + zone);
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
