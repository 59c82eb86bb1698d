package io.squall.core.provision;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.money.PriceSeries;
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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The fleet engine against a ledger in memory that records what it is told, in order. */
class FleetActuatorTest {
  private static final Instant T0 = Instant.parse("2026-11-25T08:00:00Z");
  private static final Offering SPOT_A = new Offering("p5.48xlarge", "a", CapacityType.SPOT, 30, Availability.AVAILABLE);
  private static final Offering SPOT_B = new Offering("p5.48xlarge", "b", CapacityType.SPOT, 35, Availability.AVAILABLE);
  private static final Offering OD_A = new Offering("p5.48xlarge", "a", CapacityType.ON_DEMAND, 98, Availability.AVAILABLE);

  /** The ledger: node states and holders, instances, and a log of every call. */
  private static final class Ledger implements FleetLedger {
    final Map<String, NodeState> states = new TreeMap<>();
    final Map<String, List<String>> jobs = new TreeMap<>();
    final Map<String, Instance> instances = new TreeMap<>();
    final Map<String, String> groups = new TreeMap<>();
    final List<String> log = new ArrayList<>();
    final List<PriceSeries.Change> prices = new ArrayList<>();

    Ledger(String... nodes) {
      for (String n : nodes) {
        states.put(n, NodeState.CLOUD);
        jobs.put(n, List.of());
      }
    }

    /** As the scheduler does: a job takes powered-down nodes, which power up. */
    void allocate(String job, String... nodes) {
      for (String n : nodes) {
        states.put(n, NodeState.POWERING_UP);
        jobs.put(n, List.of(job));
      }
    }

    @Override
    public List<FleetNode> nodes() {
      return states.keySet().stream()
          .map(n -> new FleetNode(n, "gpu", groups.getOrDefault(n, "pg1"), states.get(n), jobs.get(n),
              instances.containsKey(n) ? instances.get(n).offering().zone() : null)).toList();
    }

    @Override
    public NodeLaunch nodeLaunch(String node) {
      return new NodeLaunch(new Node(node, 8, "h100", 192, 2_097_152, Set.of(), "pg1", NodeState.POWERING_UP),
          "http://controller", "token-" + node);
    }

    @Override
    public void launchIntended(PowerAction.Launch launch, Instant now) {
      log.add("intent " + launch.idempotencyToken());
    }

    @Override
    public void launchEnded(PowerAction.Launch launch, List<Instance> made, String failure, Instant now) {
      log.add("ended " + launch.offering().key() + (failure == null ? " made " + made.size() : " failed " + failure));
    }

    @Override
    public void instanceMade(Instance instance, Instant now) {
      instances.put(instance.nodeName(), instance);
    }

    @Override
    public Optional<Instance> instanceOf(String node) {
      return Optional.ofNullable(instances.get(node));
    }

    @Override
    public void instanceGone(String node, Instance instance, Instant now) {
      instances.remove(node);
      log.add("gone " + node);
    }

    @Override
    public void resume(String node, String reason) {
      states.put(node, NodeState.POWERING_UP);
    }

    @Override
    public void move(String node, String reason) {
      states.put(node, NodeState.POWERING_UP);
      log.add("move " + node);
    }

    @Override
    public boolean beginPowerDown(String node, String reason) {
      if (states.get(node) != NodeState.IDLE || !jobs.get(node).isEmpty()) {
        return false;
      }
      states.put(node, NodeState.POWERING_DOWN);
      return true;
    }

    @Override
    public void poweredDown(List<String> nodes, String reason) {
      nodes.forEach(n -> states.put(n, NodeState.CLOUD));
      log.add("cloud " + nodes + ": " + reason);
    }

    @Override
    public void release(List<String> nodes, String reason) {
      nodes.forEach(n -> {
        states.put(n, NodeState.DOWN);
        jobs.put(n, List.of());
      });
      log.add("release " + nodes + ": " + reason);
    }

    @Override
    public void waiting(List<String> nodes, String reason) {
      log.add("waiting " + nodes + ": " + reason);
    }

    @Override
    public void warn(String message) {
      log.add("warn " + message);
    }

    @Override
    public void priceChanged(PriceSeries.Change change) {
      prices.add(change);
    }
  }

  /** A provider that answers launches from a queue of outcomes and checks the intent came first. */
  private static class Provider implements NodeProvider {
    final Ledger ledger;
    final Deque<ProviderException> failures = new ArrayDeque<>();
    final List<Instance> terminated = new ArrayList<>();
    List<Offering> catalogue = List.of(SPOT_A, SPOT_B, OD_A);
    /** Offerings whose every launch fails for lack of capacity. */
    final Set<String> noCapacity = new java.util.TreeSet<>();
    final List<String> calls = new ArrayList<>();
    int made;

    Provider(Ledger ledger) {
      this.ledger = ledger;
    }

    @Override
    public String name() {
      return "test";
    }

    @Override
    public List<Offering> offerings(List<String> instanceTypes) {
      return catalogue;
    }

    @Override
    public List<Instance> launch(LaunchRequest request) {
      assertThat(ledger.log).last().isEqualTo("intent " + request.idempotencyToken());
      calls.add(request.offering().key());
      if (noCapacity.contains(request.offering().key())) {
        throw new ProviderException(ProviderException.Kind.INSUFFICIENT_CAPACITY,
            "InsufficientInstanceCapacity: " + request.offering().key());
      }
      ProviderException failure = failures.poll();
      if (failure != null) {
        throw failure;
      }
      return request.nodes().stream().map(n -> new Instance("i-" + (++made), n.node().name(), request.cluster(),
          request.partition(), request.placementGroup(), request.idempotencyToken(), request.offering(),
          InstanceState.PENDING)).toList();
    }

    @Override
    public void terminate(Instance instance) {
      terminated.add(instance);
    }

    @Override
    public List<Instance> list(String cluster) {
      return List.of();
    }

    @Override
    public List<SpotPrice> spotPrices(List<String> instanceTypes) {
      return List.of();
    }

    @Override
    public void close() {}
  }

  private final CapacityPolicy policy = CapacityPolicy.defaults("p5.48xlarge");
  private final Ledger ledger = new Ledger("n1", "n2");
  private final Provider provider = new Provider(ledger);
  private final FleetActuator fleet = new FleetActuator("c1", Map.of("gpu", policy), provider, ledger);

  @Test
  void aGangIsRecordedThenLaunchedWholeAfterTheBatchWindow() {
    fleet.tick(T0);
    ledger.allocate("1", "n1", "n2");
    fleet.tick(T0.plusMillis(250));
    assertThat(ledger.log).isEmpty(); // inside the batch window
    fleet.tick(T0.plusMillis(1250));
    assertThat(ledger.log).containsExactly(
        "intent c1-gpu-n1-" + T0.plusMillis(250).toEpochMilli() + "-" + T0.plusMillis(1250).toEpochMilli()
            + "-p5.48xlarge/a/SPOT",
        "ended p5.48xlarge/a/SPOT made 2");
    assertThat(ledger.instances).containsOnlyKeys("n1", "n2");
    assertThat(ledger.instances.values()).allSatisfy(i -> assertThat(i.offering()).isEqualTo(SPOT_A));
  }

  @Test
  void aCapacityFailureIsFollowedByTheNextOfferingInTheSameTick() {
    fleet.tick(T0);
    ledger.allocate("1", "n1", "n2");
    fleet.tick(T0.plusMillis(250));
    provider.failures.add(new ProviderException(ProviderException.Kind.INSUFFICIENT_CAPACITY, "no p5 in a"));
    fleet.tick(T0.plusSeconds(2));
    assertThat(ledger.log).filteredOn(l -> l.startsWith("ended ")).containsExactly(
        "ended p5.48xlarge/a/SPOT failed INSUFFICIENT_CAPACITY: no p5 in a", "ended p5.48xlarge/b/SPOT made 2");
    assertThat(ledger.log).contains("waiting [n1, n2]: launch failed: no p5 in a");
  }

  @Test
  void aNodeNotUpWithinResumeTimeoutIsReleasedThenPoweredDownAfterItsTimeDown() {
    fleet.tick(T0);
    ledger.allocate("1", "n1");
    fleet.tick(T0.plusSeconds(1));
    fleet.tick(T0.plusSeconds(2));
    assertThat(ledger.instances).containsOnlyKeys("n1");
    Instant timeout = T0.plusSeconds(1).plus(policy.resumeTimeout());
    assertThat(fleet.nextDecision(T0.plusSeconds(2))).isEqualTo(timeout);
    fleet.tick(timeout);
    assertThat(ledger.states).containsEntry("n1", NodeState.DOWN);
    assertThat(provider.terminated).extracting(Instance::nodeName).containsExactly("n1");
    assertThat(fleet.nextDecision(timeout)).isEqualTo(timeout.plus(FleetActuator.DOWN_FOR));
    fleet.tick(timeout.plus(FleetActuator.DOWN_FOR).minusMillis(1));
    assertThat(ledger.states).containsEntry("n1", NodeState.DOWN);
    fleet.tick(timeout.plus(FleetActuator.DOWN_FOR));
    assertThat(ledger.states).containsEntry("n1", NodeState.CLOUD);
  }

  @Test
  void anotherJobTakingAPoweringUpNodeRestartsItsWait() {
    fleet.tick(T0);
    ledger.allocate("1", "n1");
    fleet.tick(T0.plusSeconds(1));
    fleet.tick(T0.plusSeconds(2)); // launched: booting
    ledger.allocate("2", "n1"); // job 1 was requeued and job 2 took the node within one tick
    fleet.tick(T0.plusSeconds(60));
    assertThat(fleet.nextDecision(T0.plusSeconds(60))).isEqualTo(T0.plusSeconds(60).plus(policy.resumeTimeout()));
  }

  @Test
  void anIdleNodeIsGivenBackAfterSuspendTimeUnlessAJobTookItMeanwhile() {
    fleet.tick(T0);
    ledger.states.put("n1", NodeState.IDLE);
    ledger.instances.put("n1", new Instance("i-9", "n1", "c1", "gpu", null, "t", SPOT_A, InstanceState.RUNNING));
    fleet.tick(T0.plusSeconds(1));
    assertThat(fleet.nextDecision(T0.plusSeconds(1))).isEqualTo(T0.plusSeconds(1).plus(policy.suspendTime()));
    fleet.tick(T0.plusSeconds(1).plus(policy.suspendTime()));
    assertThat(ledger.states).containsEntry("n1", NodeState.CLOUD);
    assertThat(ledger.log).containsSubsequence("gone n1", "cloud [n1]: powered down: idle for SuspendTime (5 min)");
  }

  @Test
  void theOfferingsPricesAreRecordedAsTheyAreListedAndOnlyWhenTheyChange() {
    fleet.tick(T0);
    assertThat(ledger.prices).extracting(c -> c.begun().offering() + " " + c.begun().usdPerHour()).containsExactly(
        "p5.48xlarge/a/SPOT 30.0", "p5.48xlarge/b/SPOT 35.0", "p5.48xlarge/a/ON_DEMAND 98.0");
    ledger.prices.clear();
    provider.catalogue = List.of(SPOT_A, new Offering("p5.48xlarge", "b", CapacityType.SPOT, 33,
        Availability.AVAILABLE), OD_A);
    fleet.tick(T0.plus(FleetActuator.OFFERINGS_FRESH_FOR).minusSeconds(1)); // the list is still fresh
    assertThat(ledger.prices).isEmpty();
    Instant listed = T0.plus(FleetActuator.OFFERINGS_FRESH_FOR);
    fleet.tick(listed);
    assertThat(ledger.prices).containsExactly(new PriceSeries.Change(
        new io.squall.core.money.PricePoint("p5.48xlarge/b/SPOT", 35, T0, listed),
        new io.squall.core.money.PricePoint("p5.48xlarge/b/SPOT", 33, listed, null)));
  }

  @Test
  void survivorsARequeuedGangDidNotTakeAgainAreGivenBackAtOnceNotAfterSuspendTime() {
    Ledger three = new Ledger("n1", "n2", "n3");
    FleetActuator fleet3 = new FleetActuator("c1", Map.of("gpu", policy), new Provider(three), three);
    for (String n : List.of("n1", "n2")) {
      three.states.put(n, NodeState.ALLOCATED);
      three.jobs.put(n, List.of("1"));
      three.instances.put(n, new Instance("i-" + n, n, "c1", "gpu", null, "t", SPOT_A, InstanceState.RUNNING));
    }
    fleet3.tick(T0);
    // Job 1 is requeued (n3 was interrupted, say): its nodes are idle, and may be used again.
    for (String n : List.of("n1", "n2")) {
      three.states.put(n, NodeState.IDLE);
      three.jobs.put(n, List.of());
    }
    fleet3.tick(T0.plusSeconds(1));
    assertThat(three.states).containsEntry("n1", NodeState.IDLE).containsEntry("n2", NodeState.IDLE);
    // The scheduler places it again on n2 and n3: n1 could not join, and is given back at once.
    three.states.put("n2", NodeState.ALLOCATED);
    three.jobs.put("n2", List.of("1"));
    three.allocate("1", "n3");
    fleet3.tick(T0.plusSeconds(2));
    assertThat(three.states).containsEntry("n1", NodeState.CLOUD).containsEntry("n2", NodeState.ALLOCATED);
    assertThat(three.log).contains("cloud [n1]: powered down: job 1 left it and now holds other nodes");
  }

  @Test
  void anIdleNodeWhoseLastJobEndedWaitsSuspendTime() {
    ledger.states.put("n1", NodeState.ALLOCATED);
    ledger.jobs.put("n1", List.of("1"));
    ledger.instances.put("n1", new Instance("i-9", "n1", "c1", "gpu", null, "t", SPOT_A, InstanceState.RUNNING));
    fleet.tick(T0);
    ledger.states.put("n1", NodeState.IDLE);
    ledger.jobs.put("n1", List.of());
    ledger.allocate("2", "n2"); // another job holds other nodes: job 1 ended, it did not move
    fleet.tick(T0.plusSeconds(1));
    fleet.tick(T0.plusSeconds(2));
    assertThat(ledger.states).containsEntry("n1", NodeState.IDLE);
  }

  @Test
  void aReclaimedSpotOfferingIsLeftAloneSoTheReplacementGoesElsewhere() {
    fleet.tick(T0);
    ledger.states.put("n1", NodeState.ALLOCATED);
    ledger.jobs.put("n1", List.of("1"));
    ledger.instances.put("n1", new Instance("i-9", "n1", "c1", "gpu", null, "t", SPOT_A, InstanceState.RUNNING));
    fleet.tick(T0.plusSeconds(1));
    fleet.spotReclaimed("n1", "instance-action", T0.plusSeconds(2));
    fleet.machineTaken("n1", "spot interruption", T0.plusSeconds(3));
    assertThat(ledger.log).contains("release [n1]: spot interruption", "gone n1");
    fleet.tick(T0.plusSeconds(3).plus(FleetActuator.DOWN_FOR));
    ledger.allocate("1", "n1");
    fleet.tick(T0.plusSeconds(10));
    fleet.tick(T0.plusSeconds(12));
    assertThat(ledger.instances.get("n1").offering()).isEqualTo(SPOT_B);
  }

  @Test
  void whileANodeWaitsForItsLaunchCallTheNextDecisionIsWhenTheCallCouldBeMade() {
    assertThat(fleet.nextDecision(T0)).isNull();
    fleet.tick(T0);
    ledger.allocate("1", "n1");
    Instant waiting = T0.plusMillis(250);
    fleet.tick(waiting);
    assertThat(fleet.nextDecision(waiting)).isEqualTo(waiting.plus(policy.batchWindow()));
    // Spot fails everywhere and on-demand is not allowed yet: the offerings are listed again first...
    provider.noCapacity.addAll(List.of(SPOT_A.key(), SPOT_B.key()));
    Instant failed = waiting.plus(policy.batchWindow());
    fleet.tick(failed);
    assertThat(provider.calls).containsExactly(SPOT_A.key(), SPOT_B.key());
    assertThat(fleet.nextDecision(failed)).isEqualTo(T0.plus(FleetActuator.OFFERINGS_FRESH_FOR));
    // ...then on-demand is allowed, before spot is tried again.
    fleet.tick(T0.plus(FleetActuator.OFFERINGS_FRESH_FOR));
    Instant onDemand = waiting.plus(policy.onDemandAfter());
    assertThat(fleet.nextDecision(T0.plus(FleetActuator.OFFERINGS_FRESH_FOR))).isEqualTo(onDemand);
    fleet.tick(onDemand);
    assertThat(provider.calls).last().isEqualTo(OD_A.key());
    assertThat(fleet.nextDecision(onDemand)).isEqualTo(waiting.plus(policy.resumeTimeout()));
  }

  @Test
  void offeringsThatCannotBeListedAreReportedAndTheFleetGoesOn() {
    NodeProvider failing = new Provider(ledger) {
      @Override
      public List<Offering> offerings(List<String> instanceTypes) {
        throw new ProviderException(ProviderException.Kind.THROTTLED, "RequestLimitExceeded");
      }
    };
    new FleetActuator("c1", Map.of("gpu", policy), failing, ledger).tick(T0);
    assertThat(ledger.log).containsExactly("warn partition gpu: cannot list offerings: RequestLimitExceeded");
  }

  @Test
  void capacityFailuresDoNotUseUpAttempts_everyAllowedOfferingIsTriedThenOnDemand() {
    List<Offering> catalogue = new ArrayList<>();
    for (String type : List.of("p5.48xlarge", "p5e.48xlarge")) {
      for (String zone : List.of("z1", "z2", "z3", "z4", "z5")) {
        catalogue.add(new Offering(type, zone, CapacityType.SPOT, 30, Availability.AVAILABLE));
      }
    }
    catalogue.add(new Offering("p5.48xlarge", "z1", CapacityType.ON_DEMAND, 98, Availability.AVAILABLE));
    provider.catalogue = catalogue;
    catalogue.stream().filter(o -> o.capacityType() == CapacityType.SPOT).forEach(o -> provider.noCapacity.add(o.key()));
    CapacityPolicy twoTypes = new CapacityPolicy(List.of("p5.48xlarge", "p5e.48xlarge"), List.of(),
        SpotPolicy.SPOT_THEN_ON_DEMAND, Duration.ofMinutes(5), null, Duration.ofMinutes(5), Duration.ofMinutes(10), 0,
        Duration.ofMinutes(5), Duration.ofSeconds(1), 3, Duration.ofSeconds(10));
    FleetActuator fleet = new FleetActuator("c1", Map.of("gpu", twoTypes), provider, ledger);
    fleet.tick(T0);
    ledger.allocate("1", "n1", "n2");
    for (Instant t = T0.plusSeconds(1); !t.isAfter(T0.plusSeconds(1).plus(Duration.ofMinutes(5))); t = t.plusSeconds(1)) {
      fleet.tick(t);
    }
    assertThat(provider.calls.subList(0, 10)).containsExactlyInAnyOrderElementsOf(
        catalogue.stream().filter(o -> o.capacityType() == CapacityType.SPOT).map(Offering::key).toList());
    assertThat(ledger.log).noneMatch(l -> l.startsWith("release"));
    assertThat(provider.calls).last().isEqualTo("p5.48xlarge/z1/ON_DEMAND");
    assertThat(ledger.instances).containsOnlyKeys("n1", "n2");
  }

  @Test
  void otherFailuresUseUpAttemptsAndTheNodesAreReleased() {
    CapacityPolicy twoAttempts = new CapacityPolicy(List.of("p5.48xlarge"), List.of(), SpotPolicy.SPOT_THEN_ON_DEMAND,
        Duration.ofMinutes(5), null, Duration.ofMinutes(5), Duration.ofMinutes(10), 0, Duration.ofMinutes(5),
        Duration.ofSeconds(1), 2, Duration.ofSeconds(1));
    FleetActuator fleet = new FleetActuator("c1", Map.of("gpu", twoAttempts), provider, ledger);
    fleet.tick(T0);
    ledger.allocate("1", "n1");
    for (int i = 0; i < 2; i++) {
      provider.failures.add(new ProviderException(ProviderException.Kind.TRANSIENT, "InternalError"));
    }
    for (Instant t = T0.plusSeconds(1); t.isBefore(T0.plusSeconds(10)); t = t.plusSeconds(1)) {
      fleet.tick(t);
    }
    assertThat(provider.calls).hasSize(2);
    assertThat(ledger.log).anyMatch(l -> l.startsWith("release [n1]: no launch succeeded in 2 attempts"));
  }

  @Test
  void whenALaterCallOfAGangFailsTheInstancesOfTheEarlierOnesAreTerminatedAtOnce() {
    Ledger ledger = new Ledger("a1", "b1");
    ledger.groups.put("b1", "pg2");
    Provider provider = new Provider(ledger) {
      @Override
      public List<Instance> launch(LaunchRequest request) {
        if (request.placementGroup().contains("pg2") && request.offering().equals(SPOT_A)) {
          calls.add(request.offering().key());
          throw new ProviderException(ProviderException.Kind.INSUFFICIENT_CAPACITY, "no room in pg2's rack");
        }
        return super.launch(request);
      }
    };
    FleetActuator fleet = new FleetActuator("c1", Map.of("gpu", policy), provider, ledger);
    fleet.tick(T0);
    ledger.allocate("1", "a1", "b1");
    fleet.tick(T0.plusSeconds(1));
    fleet.tick(T0.plusSeconds(2));
    assertThat(provider.calls).containsExactly(SPOT_A.key(), SPOT_A.key(), SPOT_B.key(), SPOT_B.key());
    assertThat(provider.terminated).extracting(Instance::nodeName).containsExactly("a1");
    assertThat(ledger.instances.values()).extracting(i -> i.offering().key()).containsOnly(SPOT_B.key());
    assertThat(ledger.instances).containsOnlyKeys("a1", "b1");
  }

  @Test
  void anInterruptedGangsReplacementGoesToAnotherZoneAndItsSurvivorsMoveWithIt() {
    Ledger ledger = new Ledger("n1", "n2", "n3");
    Provider provider = new Provider(ledger);
    FleetActuator fleet = new FleetActuator("c1", Map.of("gpu", policy), provider, ledger);
    fleet.tick(T0);
    ledger.allocate("1", "n1", "n2");
    fleet.tick(T0.plusSeconds(1));
    fleet.tick(T0.plusSeconds(2));
    assertThat(ledger.instances.values()).extracting(i -> i.offering()).containsOnly(SPOT_A);
    ledger.states.put("n1", NodeState.ALLOCATED);
    ledger.states.put("n2", NodeState.ALLOCATED);
    fleet.tick(T0.plusSeconds(200));
    // n2's spot machine is reclaimed; the job is requeued and placed again on n1 and n3.
    fleet.spotReclaimed("n2", "instance-action", T0.plusSeconds(300));
    fleet.machineTaken("n2", "spot interruption", T0.plusSeconds(420));
    ledger.allocate("1", "n1", "n3");
    ledger.states.put("n1", NodeState.ALLOCATED);
    fleet.tick(T0.plusSeconds(421));
    fleet.tick(T0.plusSeconds(423));
    // Spot in zone a is left alone and on-demand there is not allowed yet: the gang moves to b now.
    assertThat(ledger.log).contains("move n1");
    assertThat(ledger.instances).containsOnlyKeys("n1", "n3");
    assertThat(ledger.instances.values()).extracting(i -> i.offering()).containsOnly(SPOT_B);
    assertThat(provider.terminated).extracting(Instance::nodeName).contains("n1", "n2");
  }
}
