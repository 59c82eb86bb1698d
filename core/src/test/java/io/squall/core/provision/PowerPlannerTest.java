package io.squall.core.provision;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.NodeState;
import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PowerPlannerTest {
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");
  private static final Offering SPOT_A = new Offering("p5.48xlarge", "us-east-1a", CapacityType.SPOT, 30, Availability.AVAILABLE);
  private static final Offering SPOT_B = new Offering("p5.48xlarge", "us-east-1b", CapacityType.SPOT, 25, Availability.AVAILABLE);
  private static final Offering OD_A = new Offering("p5.48xlarge", "us-east-1a", CapacityType.ON_DEMAND, 98.32, Availability.AVAILABLE);
  private static final List<Offering> OFFERINGS = List.of(OD_A, SPOT_A, SPOT_B);

  private static final JobPurchase SOFT_BUDGET = JobPurchase.PARTITION.and(SpotPolicy.SPOT, null,
      "spot only (the account is past its soft budget)");

  private final PowerPlanner planner = new PowerPlanner("c1");
  private final OfferingBook book = new OfferingBook();
  private CapacityPolicy policy = CapacityPolicy.defaults("p5.48xlarge");

  private static ElasticNode node(String name, String group, NodeState state, Instant since) {
    return new ElasticNode(name, "gpu", group, state, since, state == NodeState.POWERING_UP ? List.of("job-" + name) : List.of(),
        false, null, 0, null);
  }

  private List<PowerAction> plan(Instant now, List<ElasticNode> nodes) {
    return planner.plan(now, nodes, Map.of("gpu", policy), Map.of("gpu", OFFERINGS), book).actions();
  }

  private static <T extends PowerAction> List<T> only(List<PowerAction> actions, Class<T> type) {
    return actions.stream().filter(type::isInstance).map(type::cast).toList();
  }

  @Test
  void aPlacementGroupsWaitingNodesAreLaunchedInOneCallAfterTheBatchWindow() {
    List<ElasticNode> nodes = List.of(
        node("gpu-1", "pg1", NodeState.POWERING_UP, T0),
        node("gpu-2", "pg1", NodeState.POWERING_UP, T0.plusMillis(400)),
        node("gpu-3", "pg2", NodeState.POWERING_UP, T0.plusMillis(900)),
        node("gpu-4", "pg2", NodeState.CLOUD, T0));
    assertThat(only(plan(T0.plusMillis(500), nodes), PowerAction.Launch.class)).isEmpty();
    List<PowerAction.Launch> launches = only(plan(T0.plusSeconds(1), nodes), PowerAction.Launch.class);
    assertThat(launches).hasSize(1);
    PowerAction.Launch l = launches.get(0);
    assertThat(l.nodes()).containsExactly("gpu-1", "gpu-2");
    assertThat(l.offering()).isEqualTo(SPOT_B); // spot first, cheapest
    assertThat(l.providerPlacementGroup()).isEqualTo("c1-pg1-us-east-1b");
    assertThat(l.idempotencyToken()).isEqualTo(planner.plan(T0.plusSeconds(1), nodes, Map.of("gpu", policy),
        Map.of("gpu", OFFERINGS), book).actions().stream().filter(PowerAction.Launch.class::isInstance)
        .map(a -> ((PowerAction.Launch) a).idempotencyToken()).findFirst().orElseThrow());
  }

  @Test
  void capacityFailuresFallBackToTheNextOfferingThenOnDemandAfterTheWait() {
    List<ElasticNode> nodes = List.of(node("gpu-1", "pg1", NodeState.POWERING_UP, T0));
    Instant t = T0.plusSeconds(2);
    ProviderException ice = new ProviderException(ProviderException.Kind.INSUFFICIENT_CAPACITY,
        "InsufficientInstanceCapacity: no p5 in us-east-1b");
    PowerAction.Launch first = only(plan(t, nodes), PowerAction.Launch.class).get(0);
    book.recordFailure(SPOT_B, ice, t, policy);
    assertThat(PowerPlanner.retryAt(policy, 1, ice, t)).isEqualTo(t);
    assertThat(only(plan(t, nodes), PowerAction.Launch.class).get(0).offering()).isEqualTo(SPOT_A);
    book.recordFailure(SPOT_A, ice, t, policy);
    List<PowerAction.Wait> waits = only(plan(t, nodes), PowerAction.Wait.class);
    assertThat(waits).hasSize(1);
    assertThat(waits.get(0).reason()).contains("InsufficientInstanceCapacity");
    // Once the spot wait is over, on-demand is allowed.
    assertThat(only(plan(T0.plus(policy.onDemandAfter()), nodes), PowerAction.Launch.class).get(0).offering())
        .isEqualTo(OD_A);
    // And after unavailableFor the spot offerings are tried again, as a new request: the failed
    // call used no attempt, yet its idempotency token must not come back (the service stores
    // each intent under its token, and EC2 would answer a reused ClientToken with the old call).
    PowerAction.Launch again = only(plan(t.plus(policy.unavailableFor()), nodes), PowerAction.Launch.class).get(0);
    assertThat(again.offering()).isEqualTo(SPOT_B).isEqualTo(first.offering());
    assertThat(again.idempotencyToken()).isNotEqualTo(first.idempotencyToken());
  }

  @Test
  void aPlanSaysWhenTheNodesItLeftWaitingCouldBeDecidedOtherwise() {
    List<ElasticNode> nodes = List.of(node("gpu-1", "pg1", NodeState.POWERING_UP, T0));
    PowerPlan batching = planner.plan(T0.plusMillis(500), nodes, Map.of("gpu", policy), Map.of("gpu", OFFERINGS), book);
    assertThat(batching.actions()).isEmpty();
    assertThat(batching.reviewAt()).isEqualTo(T0.plus(policy.batchWindow()));
    // Every spot offering left alone, on-demand not allowed yet: on-demand comes first.
    Instant t = T0.plusSeconds(2);
    ProviderException ice = new ProviderException(ProviderException.Kind.INSUFFICIENT_CAPACITY, "no p5");
    book.recordFailure(SPOT_A, ice, t, policy);
    book.recordFailure(SPOT_B, ice, t, policy);
    PowerPlan waiting = planner.plan(t, nodes, Map.of("gpu", policy), Map.of("gpu", OFFERINGS), book);
    assertThat(waiting.quiet()).isTrue();
    assertThat(waiting.reviewAt()).isEqualTo(T0.plus(policy.onDemandAfter()));
    // Spot only: when the first offering may be tried again.
    CapacityPolicy spotOnly = policy.withSpot(SpotPolicy.SPOT);
    assertThat(planner.plan(t, nodes, Map.of("gpu", spotOnly), Map.of("gpu", OFFERINGS), book).reviewAt())
        .isEqualTo(t.plus(policy.unavailableFor()));
    // A job's rule that changes by itself (a deadline's) before either.
    Map<String, JobPurchase> rules = Map.of("job-gpu-1",
        JobPurchase.PARTITION.and(SpotPolicy.SPOT, null, "deadline: ahead").until(T0.plusSeconds(90)));
    assertThat(planner.plan(t, nodes, Map.of("gpu", policy), Map.of("gpu", OFFERINGS), book, rules, o -> 0).reviewAt())
        .isEqualTo(T0.plusSeconds(90));
    // Once on-demand is allowed the plan launches: not quiet.
    assertThat(planner.plan(T0.plus(policy.onDemandAfter()), nodes, Map.of("gpu", policy), Map.of("gpu", OFFERINGS),
        book).quiet()).isFalse();
  }

  @Test
  void aCapacityFailureIsFollowedByTheFallbackCallInTheSameTickButThrottlingWaits() {
    Instant t = T0.plusSeconds(1);
    ElasticNode[] gpu1 = {node("gpu-1", "pg1", NodeState.POWERING_UP, T0)};
    List<PowerAction.Launch> calls = new ArrayList<>();
    planner.planAndApply(t, () -> List.of(gpu1[0]), Map.of("gpu", policy), Map.of("gpu", OFFERINGS), book, a -> {
      if (!(a instanceof PowerAction.Launch l)) {
        return false;
      }
      calls.add(l);
      if (l.offering().equals(SPOT_A)) {
        return false; // launched
      }
      ProviderException ice = new ProviderException(ProviderException.Kind.INSUFFICIENT_CAPACITY, "no capacity");
      book.recordFailure(l.offering(), ice, t, policy);
      gpu1[0] = new ElasticNode("gpu-1", "gpu", "pg1", NodeState.POWERING_UP, T0, List.of("1"), false, null, 1,
          PowerPlanner.retryAt(policy, 1, ice, t));
      return true;
    });
    assertThat(calls).extracting(PowerAction.Launch::offering).containsExactly(SPOT_B, SPOT_A);
    assertThat(calls.get(0).idempotencyToken()).isNotEqualTo(calls.get(1).idempotencyToken());

    // When the actuator reports nothing to fall back from (a success, a throttled call): one call.
    calls.clear();
    ElasticNode gpu2 = node("gpu-2", "pg2", NodeState.POWERING_UP, T0);
    planner.planAndApply(t, () -> List.of(gpu2), Map.of("gpu", policy), Map.of("gpu", OFFERINGS), new OfferingBook(),
        a -> a instanceof PowerAction.Launch l && calls.add(l) && false);
    assertThat(calls).hasSize(1);

    // A provider that fails everything is called at most MAX_PLANS_PER_TICK times per tick.
    calls.clear();
    planner.planAndApply(t, () -> List.of(gpu2), Map.of("gpu", policy), Map.of("gpu", OFFERINGS), new OfferingBook(),
        a -> a instanceof PowerAction.Launch l && calls.add(l));
    assertThat(calls).hasSize(PowerPlanner.MAX_PLANS_PER_TICK);
  }

  @Test
  void spotOnlyPoliciesNeverBuyOnDemandAndPriceCapsApply() {
    policy = new CapacityPolicy(List.of("p5.48xlarge"), List.of(), SpotPolicy.SPOT, Duration.ZERO, 26.0,
        Duration.ofMinutes(5), Duration.ofMinutes(10), 0, Duration.ofMinutes(5), Duration.ZERO, 3, Duration.ofSeconds(10));
    List<ElasticNode> nodes = List.of(node("gpu-1", "pg1", NodeState.POWERING_UP, T0));
    assertThat(only(plan(T0, nodes), PowerAction.Launch.class).get(0).offering()).isEqualTo(SPOT_B);
    book.markUnavailable(SPOT_B, T0.plusSeconds(60), "interrupted");
    assertThat(only(plan(T0.plusSeconds(3600), nodes), PowerAction.Launch.class)).isEmpty();
  }

  @Test
  void aUnitHoldingASpotOnlyJobIsBoughtAsSpotWhateverTheWaitAndWaitsWhereOnlyOnDemandIsSold() {
    // Job "job-gpu-1"'s account is past its soft budget: spot only.
    List<ElasticNode> nodes = List.of(node("gpu-1", "pg1", NodeState.POWERING_UP, T0));
    Instant late = T0.plus(policy.onDemandAfter()).plusSeconds(1);
    book.markUnavailable(SPOT_A, late.plusSeconds(600), "no capacity");
    book.markUnavailable(SPOT_B, late.plusSeconds(600), "no capacity");
    // Past on-demand-after the partition's policy would buy on demand; the spot-only job does not.
    assertThat(only(plan(late, nodes), PowerAction.Launch.class).get(0).offering()).isEqualTo(OD_A);
    Map<String, JobPurchase> rules = Map.of("job-gpu-1", SOFT_BUDGET);
    List<PowerAction> spotOnly = planner.plan(late, nodes, Map.of("gpu", policy), Map.of("gpu", OFFERINGS), book,
        rules, o -> 0).actions();
    assertThat(only(spotOnly, PowerAction.Launch.class)).isEmpty();
    assertThat(only(spotOnly, PowerAction.Wait.class).get(0).reason()).contains("no capacity");
    // An on-demand-only partition cannot serve it: it waits, saying why.
    CapacityPolicy onDemand = policy.withSpot(SpotPolicy.ON_DEMAND);
    List<PowerAction> none = planner.plan(late, nodes, Map.of("gpu", onDemand), Map.of("gpu", OFFERINGS), book,
        rules, o -> 0).actions();
    assertThat(only(none, PowerAction.Launch.class)).isEmpty();
    assertThat(only(none, PowerAction.Wait.class).get(0).reason())
        .isEqualTo("spot only (the account is past its soft budget), and partition gpu buys on-demand only");
  }

  @Test
  void aGroupThatRunsInAZoneStaysInIt() {
    List<ElasticNode> nodes = new ArrayList<>();
    nodes.add(new ElasticNode("gpu-1", "gpu", "pg1", NodeState.IDLE, T0, List.of("1"), true, "us-east-1a", 1, null));
    nodes.add(node("gpu-2", "pg1", NodeState.POWERING_UP, T0));
    assertThat(only(plan(T0.plusSeconds(2), nodes), PowerAction.Launch.class).get(0).offering()).isEqualTo(SPOT_A);
  }

  @Test
  void throttlingBacksOffExponentiallyUpToTheCap() {
    ProviderException slow = new ProviderException(ProviderException.Kind.THROTTLED, "RequestLimitExceeded");
    assertThat(PowerPlanner.retryAt(policy, 1, slow, T0)).isEqualTo(T0.plusSeconds(10));
    assertThat(PowerPlanner.retryAt(policy, 3, slow, T0)).isEqualTo(T0.plusSeconds(40));
    assertThat(PowerPlanner.retryAt(policy, 30, slow, T0)).isEqualTo(T0.plus(policy.unavailableFor()));
    List<ElasticNode> backingOff = List.of(new ElasticNode("gpu-1", "gpu", "pg1", NodeState.POWERING_UP, T0, List.of("1"),
        false, null, 1, T0.plusSeconds(10)));
    assertThat(only(plan(T0.plusSeconds(5), backingOff), PowerAction.Launch.class)).isEmpty();
    assertThat(only(plan(T0.plusSeconds(10), backingOff), PowerAction.Launch.class)).hasSize(1);
  }

  @Test
  void idleNodesGoBackAfterSuspendTimeAboveTheMinimumAndLateOnesAreReleased() {
    policy = new CapacityPolicy(List.of("p5.48xlarge"), List.of(), SpotPolicy.SPOT_THEN_ON_DEMAND, Duration.ZERO, null,
        Duration.ofMinutes(5), Duration.ofMinutes(10), 1, Duration.ofMinutes(5), Duration.ZERO, 2, Duration.ofSeconds(10));
    Instant now = T0.plus(Duration.ofMinutes(20));
    List<ElasticNode> nodes = List.of(
        new ElasticNode("gpu-1", "gpu", "pg1", NodeState.IDLE, T0, List.of(), true, "us-east-1a", 1, null),
        new ElasticNode("gpu-2", "gpu", "pg1", NodeState.IDLE, T0.plusSeconds(60), List.of(), true, "us-east-1a", 1, null),
        new ElasticNode("gpu-3", "gpu", "pg1", NodeState.IDLE, now.minusSeconds(60), List.of(), true, "us-east-1a", 1, null),
        new ElasticNode("gpu-4", "gpu", "pg2", NodeState.POWERING_UP, now.minus(Duration.ofMinutes(10)), List.of("1"), true,
            "us-east-1b", 1, null),
        new ElasticNode("gpu-5", "gpu", "pg2", NodeState.POWERING_UP, now, List.of("1"), false, null, 2, null));
    List<PowerAction> actions = plan(now, nodes);
    assertThat(only(actions, PowerAction.Suspend.class)).extracting(PowerAction.Suspend::node)
        .containsExactly("gpu-1", "gpu-2");
    assertThat(only(actions, PowerAction.Release.class)).extracting(PowerAction.Release::nodes)
        .containsExactly(List.of("gpu-4"), List.of("gpu-5"));
    assertThat(only(actions, PowerAction.Release.class).get(0).reason()).contains("ResumeTimeout");
  }

  @Test
  void theMinimumIsKeptPowered() {
    policy = new CapacityPolicy(List.of("p5.48xlarge"), List.of(), SpotPolicy.SPOT, Duration.ZERO, null,
        Duration.ofMinutes(5), Duration.ofMinutes(10), 2, Duration.ofMinutes(5), Duration.ZERO, 2, Duration.ofSeconds(10));
    List<PowerAction> actions = plan(T0, List.of(node("gpu-1", "pg1", NodeState.CLOUD, T0),
        node("gpu-2", "pg1", NodeState.CLOUD, T0), node("gpu-3", "pg1", NodeState.CLOUD, T0)));
    assertThat(only(actions, PowerAction.Resume.class)).extracting(PowerAction.Resume::node)
        .containsExactly("gpu-1", "gpu-2");
  }

  @Test
  void whenNoSpotOfferingCouldBeUsedAtAllOnDemandGoesAtOnce() {
    List<ElasticNode> nodes = List.of(node("gpu-1", "pg1", NodeState.POWERING_UP, T0));
    Instant t = T0.plusSeconds(2);
    // Every spot offering above the price cap.
    CapacityPolicy capped = new CapacityPolicy(List.of("p5.48xlarge"), List.of(), SpotPolicy.SPOT_THEN_ON_DEMAND,
        Duration.ofMinutes(5), 20.0, Duration.ofMinutes(5), Duration.ofMinutes(10), 0, Duration.ofMinutes(5),
        Duration.ofSeconds(1), 8, Duration.ofSeconds(10));
    assertThat(only(planner.plan(t, nodes, Map.of("gpu", capped), Map.of("gpu", OFFERINGS), book).actions(),
        PowerAction.Launch.class).get(0).offering()).isEqualTo(OD_A);
    // Spot offered only outside the allowed zones.
    CapacityPolicy zoneA = new CapacityPolicy(List.of("p5.48xlarge"), List.of("us-east-1a"),
        SpotPolicy.SPOT_THEN_ON_DEMAND, Duration.ofMinutes(5), null, Duration.ofMinutes(5), Duration.ofMinutes(10), 0,
        Duration.ofMinutes(5), Duration.ofSeconds(1), 8, Duration.ofSeconds(10));
    assertThat(only(planner.plan(t, nodes, Map.of("gpu", zoneA), Map.of("gpu", List.of(OD_A, SPOT_B)), book).actions(),
        PowerAction.Launch.class).get(0).offering()).isEqualTo(OD_A);
    // Spot not offered at all.
    assertThat(only(planner.plan(t, nodes, Map.of("gpu", policy), Map.of("gpu", List.of(OD_A,
        SPOT_A.withAvailability(Availability.UNAVAILABLE))), book).actions(), PowerAction.Launch.class).get(0).offering())
        .isEqualTo(OD_A);
    // Spot that exists but failed: the gang waits on-demand-after for it.
    book.recordFailure(SPOT_A, new ProviderException(ProviderException.Kind.INSUFFICIENT_CAPACITY, "ICE"), t, policy);
    book.recordFailure(SPOT_B, new ProviderException(ProviderException.Kind.INSUFFICIENT_CAPACITY, "ICE"), t, policy);
    assertThat(only(plan(t, nodes), PowerAction.Launch.class)).isEmpty();
  }

  private static ElasticNode live(String name, String group, String zone, List<String> jobs) {
    return new ElasticNode(name, "gpu", group, jobs.isEmpty() ? NodeState.IDLE : NodeState.ALLOCATED, T0, jobs, true,
        zone, 0, null);
  }

  private static ElasticNode waiting(String name, String group, String job) {
    return new ElasticNode(name, "gpu", group, NodeState.POWERING_UP, T0, List.of(job), false, null, 0, null);
  }

  @Test
  void aReplacementWhoseZonesSpotWasReclaimedMovesItsGangToAnotherZoneInsteadOfWaiting() {
    Instant t = T0.plusSeconds(2);
    book.markReclaimed(SPOT_A, t.plusSeconds(300), "interrupted");
    List<ElasticNode> nodes = List.of(waiting("gpu-1", "pg1", "7"), live("gpu-2", "pg1", "us-east-1a", List.of("7")),
        live("gpu-3", "pg1", "us-east-1a", List.of("7")), live("gpu-4", "pg1", "us-east-1a", List.of()));
    List<PowerAction> actions = plan(t, nodes);
    assertThat(only(actions, PowerAction.Move.class)).singleElement()
        .satisfies(m -> assertThat(m.nodes()).containsExactly("gpu-2", "gpu-3"));
    // The idle survivor is not kept billed in the zone the group leaves.
    assertThat(only(actions, PowerAction.Suspend.class)).extracting(PowerAction.Suspend::node).containsExactly("gpu-4");
    PowerAction.Launch l = only(actions, PowerAction.Launch.class).get(0);
    assertThat(l.nodes()).containsExactly("gpu-1", "gpu-2", "gpu-3");
    assertThat(l.offering()).isEqualTo(SPOT_B);
    assertThat(l.providerPlacementGroup()).isEqualTo("c1-pg1-us-east-1b");
  }

  @Test
  void aGangStaysInItsZoneWhenItsZoneStillHasItsKindOrAMachineThereRunsOtherWork() {
    Instant t = T0.plusSeconds(2);
    List<ElasticNode> stay = List.of(waiting("gpu-1", "pg1", "7"), live("gpu-2", "pg1", "us-east-1a", List.of("7")));
    assertThat(only(plan(t, stay), PowerAction.Launch.class).get(0).offering()).isEqualTo(SPOT_A);
    assertThat(only(plan(t, stay), PowerAction.Move.class)).isEmpty();

    // A machine of the group runs other work: the group stays. Its zone's spot is being taken
    // back, so the replacement goes on-demand there at once rather than wait on-demand-after.
    book.markReclaimed(SPOT_A, t.plusSeconds(300), "interrupted");
    List<ElasticNode> busy = List.of(waiting("gpu-1", "pg1", "7"), live("gpu-2", "pg1", "us-east-1a", List.of("7")),
        live("gpu-3", "pg1", "us-east-1a", List.of("8")));
    List<PowerAction> actions = plan(t, busy);
    assertThat(only(actions, PowerAction.Move.class)).isEmpty();
    assertThat(only(actions, PowerAction.Launch.class)).singleElement()
        .satisfies(l -> assertThat(l.offering()).isEqualTo(OD_A));

    // Spot that failed a launch there (rather than being taken back) is waited for, on-demand-after.
    OfferingBook failed = new OfferingBook();
    failed.markUnavailable(SPOT_A, t.plusSeconds(300), "InsufficientInstanceCapacity");
    List<PowerAction> waits = planner.plan(t, busy, Map.of("gpu", policy), Map.of("gpu", OFFERINGS), failed).actions();
    assertThat(only(waits, PowerAction.Launch.class)).isEmpty();
    assertThat(only(waits, PowerAction.Wait.class)).singleElement()
        .satisfies(w -> assertThat(w.reason()).contains("InsufficientInstanceCapacity"));
  }

  @Test
  void aGangAcrossPlacementGroupsIsOneLaunchDecision() {
    Instant t = T0.plusSeconds(2);
    List<PowerAction> actions = plan(t, List.of(waiting("gpu-1", "pg1", "7"), waiting("gpu-5", "pg2", "7"),
        waiting("gpu-9", "pg3", "9")));
    PowerAction.Gang gang = only(actions, PowerAction.Gang.class).get(0);
    assertThat(gang.calls()).extracting(PowerAction.Launch::placementGroup).containsExactly("pg1", "pg2");
    assertThat(gang.calls()).extracting(PowerAction.Launch::offering).containsOnly(SPOT_B);
    assertThat(gang.calls()).extracting(PowerAction.Launch::idempotencyToken).doesNotHaveDuplicates();
    assertThat(only(actions, PowerAction.Launch.class)).singleElement()
        .satisfies(l -> assertThat(l.nodes()).containsExactly("gpu-9"));
  }

  private List<PowerAction> plan(Instant now, List<ElasticNode> nodes, Map<String, JobPurchase> rules,
      java.util.function.ToDoubleFunction<Offering> rates) {
    return planner.plan(now, nodes, Map.of("gpu", policy), Map.of("gpu", OFFERINGS), book, rules, rates).actions();
  }

  @Test
  void anOnDemandQosBuysOnDemandAtOnceAndASpotOnlyQosNeverDoes() {
    List<ElasticNode> nodes = List.of(node("gpu-1", "pg1", NodeState.POWERING_UP, T0));
    JobPurchase onDemand = JobPurchase.PARTITION.and(SpotPolicy.ON_DEMAND, null, "QOS on-demand");
    PowerAction.Launch l = only(plan(T0.plusSeconds(1), nodes, Map.of("job-gpu-1", onDemand), o -> 0),
        PowerAction.Launch.class).get(0);
    assertThat(l.offering()).isEqualTo(OD_A);
    assertThat(l.why()).contains("on-demand only").contains("QOS on-demand");
    JobPurchase spotOnly = JobPurchase.PARTITION.and(SpotPolicy.SPOT, null, "QOS spot-only");
    book.markUnavailable(SPOT_A, T0.plusSeconds(7200), "no capacity");
    book.markUnavailable(SPOT_B, T0.plusSeconds(7200), "no capacity");
    List<PowerAction> late = plan(T0.plusSeconds(360), nodes, Map.of("job-gpu-1", spotOnly), o -> 0);
    assertThat(only(late, PowerAction.Launch.class)).isEmpty();
    assertThat(only(late, PowerAction.Wait.class).get(0).reason()).contains("no capacity").contains("QOS spot-only");
  }

  @Test
  void twoJobsOfOneGroupWithRulesThatExcludeEachOtherAreDecidedApart() {
    List<ElasticNode> nodes = List.of(node("gpu-1", "pg1", NodeState.POWERING_UP, T0),
        node("gpu-2", "pg1", NodeState.POWERING_UP, T0));
    Map<String, JobPurchase> rules = Map.of(
        "job-gpu-1", JobPurchase.PARTITION.and(SpotPolicy.ON_DEMAND, null, "QOS on-demand"),
        "job-gpu-2", JobPurchase.PARTITION.and(SpotPolicy.SPOT, null, "QOS spot-only"));
    List<PowerAction.Launch> launches = only(plan(T0.plusSeconds(1), nodes, rules, o -> 0), PowerAction.Launch.class);
    assertThat(launches).extracting(l -> l.nodes().get(0) + "=" + l.offering().capacityType())
        .containsExactlyInAnyOrder("gpu-1=ON_DEMAND", "gpu-2=SPOT");
  }

  @Test
  void priceCapsPerGpuHourOfPartitionAccountAndQosAllApply() {
    List<ElasticNode> nodes = List.of(node("gpu-1", "pg1", NodeState.POWERING_UP, T0));
    // SPOT_B is 25/8 = 3.125 USD per GPU-hour, SPOT_A 3.75, on-demand 12.29.
    JobPurchase capped = JobPurchase.PARTITION.withCaps(new io.squall.core.money.PriceCaps(3.0, null), "account ml caps");
    List<PowerAction> waits = plan(T0.plusSeconds(1), nodes, Map.of("job-gpu-1", capped), o -> 0);
    // Spot above the cap, so no spot offering can be used at all: on-demand goes at once.
    assertThat(only(waits, PowerAction.Launch.class).get(0).offering()).isEqualTo(OD_A);
    JobPurchase spotCapped = capped.and(SpotPolicy.SPOT, null, "QOS spot-only");
    assertThat(only(plan(T0.plusSeconds(1), nodes, Map.of("job-gpu-1", spotCapped), o -> 0), PowerAction.Wait.class)
        .get(0).reason()).contains("no offering of [p5.48xlarge] allowed (spot only, caps spot at most 3.00");
    policy = policy.withCaps(new io.squall.core.money.PriceCaps(null, 12.0), 8);
    List<PowerAction> none = plan(T0.plusSeconds(360), nodes, Map.of("job-gpu-1", capped), o -> 0);
    assertThat(only(none, PowerAction.Launch.class)).isEmpty(); // on-demand 12.29 is above the partition's 12.00
    assertThat(only(none, PowerAction.Wait.class).get(0).reason()).contains("caps").contains("account ml caps");
    policy = policy.withCaps(new io.squall.core.money.PriceCaps(null, 12.5), 8);
    assertThat(only(plan(T0.plusSeconds(360), nodes, Map.of("job-gpu-1", capped), o -> 0), PowerAction.Launch.class)
        .get(0).offering()).isEqualTo(OD_A);
  }

  @Test
  void offeringsRankByExpectedCostOfUsefulWork() {
    List<ElasticNode> nodes = List.of(node("gpu-1", "pg1", NodeState.POWERING_UP, T0),
        node("gpu-2", "pg1", NodeState.POWERING_UP, T0));
    for (ElasticNode n : nodes) {
      assertThat(n.jobs()).hasSize(1);
    }
    // One 2-node gang; an interruption costs it 1 hour. us-east-1b is cheaper but interrupted 0.2
    // times per node-hour: 3.125 x (1 + 0.2 x 2 x 1) = 4.375 > 3.75 for us-east-1a at no interruptions.
    List<ElasticNode> gang = List.of(
        new ElasticNode("gpu-1", "gpu", "pg1", NodeState.POWERING_UP, T0, List.of("7"), false, null, 0, null),
        new ElasticNode("gpu-2", "gpu", "pg1", NodeState.POWERING_UP, T0, List.of("7"), false, null, 0, null));
    Map<String, JobPurchase> rules = Map.of("7", JobPurchase.PARTITION.withRework(1.0));
    java.util.function.ToDoubleFunction<Offering> rates = o -> o.equals(SPOT_B) ? 0.2 : 0;
    PowerAction.Launch l = only(plan(T0.plusSeconds(1), gang, rules, rates), PowerAction.Launch.class).get(0);
    assertThat(l.offering()).isEqualTo(SPOT_A);
    assertThat(l.why()).startsWith("p5.48xlarge/us-east-1a/SPOT at 3.75 USD per GPU-hour: the lowest expected cost");
    // A job that loses nothing to an interruption takes the cheapest.
    assertThat(only(plan(T0.plusSeconds(1), gang, Map.of(), rates), PowerAction.Launch.class).get(0).offering())
        .isEqualTo(SPOT_B);
    // With a high enough rate, on-demand beats spot once both are allowed: 12.29 < 3.75 x (1 + 2 x 2 x 1).
    PowerAction.Launch od = only(plan(T0.plusSeconds(360), gang, rules, o -> o.capacityType() == CapacityType.SPOT ? 2 : 0),
        PowerAction.Launch.class).get(0);
    assertThat(od.offering()).isEqualTo(OD_A);
    assertThat(od.why()).contains("12.29 USD per GPU-hour");
    // A rate as small as AWS publishes (>20% a month: 0.25 / 730) still shows in the reason.
    PowerAction.Launch aws = only(plan(T0.plusSeconds(1), gang, rules,
        o -> o.capacityType() == CapacityType.SPOT ? 0.25 / 730 : 0), PowerAction.Launch.class).get(0);
    assertThat(aws.why()).contains("(0.00034 interruptions per node-hour x 2 nodes x 1.00 h lost each)");
  }
}
