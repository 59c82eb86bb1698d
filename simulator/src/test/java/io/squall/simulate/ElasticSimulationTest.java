package io.squall.simulate;

import static io.squall.simulate.ElasticFixtures.BOOT;
import static io.squall.simulate.ElasticFixtures.CATALOGUE;
import static io.squall.simulate.ElasticFixtures.SPOT_AZ3;
import static io.squall.simulate.ElasticFixtures.T0;
import static io.squall.simulate.ElasticFixtures.at;
import static io.squall.simulate.ElasticFixtures.nodes;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.provision.CapacityPolicy;
import io.squall.core.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ElasticSimulationTest {
  private final ManualClock clock = new ManualClock(T0);

  private SimulatedProvider provider(long seed) {
    return new SimulatedProvider(clock, CATALOGUE, new SplittableRandom(seed)).bootLatency(BOOT);
  }

  private ElasticSimulation simulation(SimulatedProvider provider, int nodes) {
    return new ElasticSimulation(ElasticSimulation.Setup.of("sim", "gpu", nodes(nodes, 4),
        CapacityPolicy.defaults("p5.48xlarge")), clock, provider);
  }

  /**
   * A static partition beside the elastic one: its nodes are up from the start and never billed,
   * so its job runs at once; the elastic partition's job waits for its launch and boot; each
   * job runs in the partition it asked for, and the run ends with the elastic nodes powered down.
   */
  @Test
  void aStaticPartitionsNodesAreUpFromTheStartAndUnbilledBesideAnElasticOne() {
    List<io.squall.core.model.Node> owned = new ArrayList<>();
    for (int i = 1; i <= 2; i++) {
      owned.add(new io.squall.core.model.Node("dgx-" + i, 8, "h100", 192, 2_097_152, java.util.Set.of("h100"), "rack",
          io.squall.core.model.NodeState.IDLE));
    }
    List<io.squall.core.model.Node> cloud = nodes(4, 4);
    ElasticSimulation.Setup setup = new ElasticSimulation.Setup("sim", List.of(
        ElasticSimulation.PartitionSetup.elastic("gpu", cloud, CapacityPolicy.defaults("p5.48xlarge")),
        new ElasticSimulation.PartitionSetup(io.squall.core.model.Partition.of("owned",
            owned.stream().map(io.squall.core.model.Node::name).toList()), owned, null)),
        io.squall.core.schedule.SchedulerConfig.defaults(), Duration.ofMillis(250), Duration.ofSeconds(1),
        Duration.ofDays(1), null, null);
    SimulatedProvider provider = provider(1);
    ElasticSimulation.Result r = new ElasticSimulation(setup, clock, provider).run(List.of(
        new ElasticSimulation.JobSpec(Duration.ZERO, 2, 8, Duration.ofMinutes(10)).withPartition("owned"),
        new ElasticSimulation.JobSpec(Duration.ZERO, 2, 8, Duration.ofMinutes(10)),
        new ElasticSimulation.JobSpec(Duration.ZERO, 1, 8, Duration.ofMinutes(10)).withPartition("gpu")));

    assertThat(r.finished()).isTrue();
    assertThat(r.jobsCompleted()).isEqualTo(3);
    ElasticSimulation.JobOutcome onOwned = r.outcomes().get(0);
    assertThat(onOwned.partition()).isEqualTo("owned");
    assertThat(onOwned.firstRun()).isEqualTo(Duration.ZERO);
    assertThat(onOwned.usd()).isZero();
    assertThat(r.outcomes().subList(1, 3)).allSatisfy(o -> {
      assertThat(o.partition()).isEqualTo("gpu"); // the default partition, or asked for
      assertThat(o.firstRun()).isEqualTo(Duration.ofSeconds(1).plus(BOOT));
      assertThat(o.usd()).isPositive();
    });
    assertThat(r.nodesLaunched()).isEqualTo(3);
    assertThat(r.events()).noneMatch(e -> e.contains("dgx-"));
    // Billed: the 3 elastic nodes only (boot, run, SuspendTime), 8 GPUs each.
    assertThat(r.billedGpuHours()).isCloseTo(3 * 8 * (3 + 10 + 5) / 60.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(r.idleNodeHours()).isCloseTo(3 * 5 / 60.0, org.assertj.core.data.Offset.offset(1e-9));
  }

  /**
   * As in the service, a job's end wakes the scheduler ({@code CycleWakeup}): the job waiting for
   * the node starts at the first tick after the end, not a whole scheduler interval (a minute here)
   * after the last cycle.
   */
  @Test
  void aJobsEndWakesTheSchedulerAsTheServicesAgentReportDoes() {
    List<io.squall.core.model.Node> owned = List.of(new io.squall.core.model.Node("dgx-1", 8, "h100", 192,
        2_097_152, java.util.Set.of("h100"), "rack", io.squall.core.model.NodeState.IDLE));
    ElasticSimulation.Setup setup = new ElasticSimulation.Setup("sim", List.of(
        new ElasticSimulation.PartitionSetup(io.squall.core.model.Partition.of("owned", List.of("dgx-1")).asDefault(),
            owned, null)),
        io.squall.core.schedule.SchedulerConfig.defaults(), Duration.ofMillis(250), Duration.ofMinutes(1),
        Duration.ofDays(1), null, null);
    ElasticSimulation.Result r = new ElasticSimulation(setup, clock, provider(1)).run(List.of(
        new ElasticSimulation.JobSpec(Duration.ZERO, 1, 8, Duration.ofSeconds(10)),
        new ElasticSimulation.JobSpec(Duration.ZERO, 1, 8, Duration.ofSeconds(10))));

    assertThat(r.jobsCompleted()).isEqualTo(2);
    assertThat(r.outcomes().get(0).firstStart()).isEqualTo(Duration.ZERO);
    // The end at 10 s asks for a cycle 5 ms later: the next tick of the 250 ms grid.
    assertThat(r.outcomes().get(1).firstStart()).isEqualTo(Duration.ofMillis(10_250));
  }

  @Test
  void aGangOnAnEmptyPartitionIsLaunchedInOneCallRunsAndIsSuspendedAfterSuspendTime() {
    SimulatedProvider provider = provider(1);
    ElasticSimulation.Result r = simulation(provider, 8).run(List.of(
        new ElasticSimulation.JobSpec(Duration.ZERO, 4, 8, Duration.ofMinutes(10))));

    assertThat(r.finished()).isTrue();
    assertThat(r.launchCalls()).isEqualTo(1);
    assertThat(r.nodesLaunched()).isEqualTo(4);
    assertThat(r.events()).filteredOn(e -> e.contains(" launch ")).singleElement().satisfies(e -> {
      assertThat(at(e)).isEqualTo(Duration.ofSeconds(1)); // the batch window
      assertThat(e).contains("launch pg0 4 nodes p5.48xlarge/use1-az3/SPOT"); // cheapest spot
    });
    assertThat(r.medianTimeToLaunchCallMs()).isEqualTo(1000);
    assertThat(r.jobsCompleted()).isEqualTo(1);
    String run = r.events().stream().filter(e -> e.contains(" run 1")).findFirst().orElseThrow();
    assertThat(at(run)).isEqualTo(Duration.ofSeconds(1).plus(BOOT));
    String end = r.events().stream().filter(e -> e.contains(" end 1 COMPLETED")).findFirst().orElseThrow();
    assertThat(at(end)).isEqualTo(at(run).plusMinutes(10));
    List<String> suspends = r.events().stream().filter(e -> e.contains(" suspend ")).toList();
    assertThat(suspends).hasSize(4).allSatisfy(e -> assertThat(at(e)).isEqualTo(at(end).plusMinutes(5)));
    assertThat(suspends).extracting(e -> e.substring(e.lastIndexOf(' ') + 1))
        .containsExactly("p5-001", "p5-002", "p5-003", "p5-004");
    assertThat(r.partialGangsBilled()).isZero();
    assertThat(r.orphans()).isZero();
    assertThat(r.idleNodeHours()).isCloseTo(4 * 5 / 60.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(r.billedNodeHours()).isCloseTo(4 * (3 + 10 + 5) / 60.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(provider.list("sim")).isEmpty();
    // Money at use1-az3's spot price: the job pays its nodes' boot and run (13 min each), the
    // 5 idle minutes before suspend are overhead; the lower bound is its 10 min of 32 GPUs at
    // the cheapest spot price per GPU-hour, so it billed 1.8 times it (18 node-minutes for 10).
    double perMinute = ElasticFixtures.SPOT_AZ3.pricePerHour() / 60;
    org.assertj.core.data.Offset<Double> cent = org.assertj.core.data.Offset.offset(1e-9);
    assertThat(r.money().jobs()).isCloseTo(4 * 13 * perMinute, cent);
    assertThat(r.money().onDemandJobs()).isZero();
    assertThat(r.money().overhead()).isCloseTo(4 * 5 * perMinute, cent);
    assertThat(r.money().billed()).isCloseTo(r.billedDollars(), cent);
    assertThat(r.money().lowerBound()).isCloseTo(4 * 10 * perMinute, cent);
    assertThat(r.money().ratio()).isCloseTo(1.8, cent);
  }

  @Test
  void aGangThatFindsNoCapacityFallsBackToTheNextOffering() {
    SimulatedProvider provider = provider(1).capacity(SPOT_AZ3, 2);
    ElasticSimulation.Result r = simulation(provider, 8).run(List.of(
        new ElasticSimulation.JobSpec(Duration.ZERO, 4, 8, Duration.ofMinutes(10))));

    assertThat(r.launchCalls()).isEqualTo(2);
    assertThat(r.failedLaunchCalls()).isEqualTo(1);
    List<String> launches = r.events().stream().filter(e -> e.contains(" launch ")).toList();
    assertThat(launches).hasSize(2);
    assertThat(launches.get(0)).contains("use1-az3/SPOT failed INSUFFICIENT_CAPACITY");
    assertThat(launches.get(1)).contains("launch pg0 4 nodes p5.48xlarge/use1-az1/SPOT");
    assertThat(at(launches.get(0))).isEqualTo(Duration.ofSeconds(1));
    assertThat(at(launches.get(1))).isEqualTo(Duration.ofSeconds(1)); // planned again in the same tick
    assertThat(r.medianTimeToLaunchCallMs()).isEqualTo(1000);
    assertThat(r.jobsLaunchedFor()).isEqualTo(1);
    assertThat(r.spotNodesLaunched()).isEqualTo(4);
    assertThat(r.jobsCompleted()).isEqualTo(1);
    assertThat(r.partialGangsBilled()).isZero();
    assertThat(r.orphans()).isZero();
  }

  @Test
  void nodesThatAreUpAreReusedWithoutALaunch() {
    SimulatedProvider provider = provider(1);
    ElasticSimulation.Result r = simulation(provider, 4).run(List.of(
        new ElasticSimulation.JobSpec(Duration.ZERO, 2, 8, Duration.ofMinutes(10)),
        new ElasticSimulation.JobSpec(Duration.ofMinutes(14), 2, 8, Duration.ofMinutes(10))));
    assertThat(r.launchCalls()).isEqualTo(1);
    assertThat(r.jobsCompleted()).isEqualTo(2);
    assertThat(r.events()).anySatisfy(e -> assertThat(e).isEqualTo("PT14M run 2 on up nodes"));
  }

  @Test
  void aNodeThatIsNotUpWithinResumeTimeoutIsDownForFiveSecondsThenPoweredDownAndItsJobRequeued() {
    SimulatedProvider provider = new SimulatedProvider(clock, CATALOGUE, new SplittableRandom(1))
        .bootLatency(Duration.ofMinutes(11)); // longer than ResumeTimeout (10 min)
    ElasticSimulation.Setup setup = ElasticSimulation.Setup.of("sim", "gpu", nodes(1, 4),
        CapacityPolicy.defaults("p5.48xlarge")).withMaxTime(Duration.ofMinutes(15));
    ElasticSimulation.Result r = new ElasticSimulation(setup, clock, provider).run(List.of(
        new ElasticSimulation.JobSpec(Duration.ZERO, 1, 8, Duration.ofMinutes(10))));

    assertThat(r.finished()).isFalse();
    assertThat(r.jobs()).isEqualTo(1);
    assertThat(r.requeues()).isEqualTo(1);
    String release = r.events().stream().filter(e -> e.contains(" release 1 nodes")).findFirst().orElseThrow();
    assertThat(at(release)).isEqualTo(Duration.ofMinutes(10));
    assertThat(r.events()).anySatisfy(e -> assertThat(e).startsWith("PT10M requeue 1: not up within ResumeTimeout"));
    String cloud = r.events().stream().filter(e -> e.contains(" cloud p5-001")).findFirst().orElseThrow();
    assertThat(at(cloud)).isEqualTo(Duration.ofMinutes(10).plusSeconds(5)); // DOWN for 5 s, not at once
    List<String> allocations = r.events().stream().filter(e -> e.contains(" allocate 1 ")).toList();
    assertThat(allocations).hasSize(2);
    assertThat(at(allocations.get(1))).isEqualTo(Duration.ofMinutes(10).plusMillis(5250));
    List<String> launches = r.events().stream().filter(e -> e.contains(" launch ")).toList();
    assertThat(launches).hasSize(2);
    assertThat(at(launches.get(1))).isEqualTo(Duration.ofMinutes(10).plusMillis(6250));
    // The released instance was terminated at the release: billed from PT1S to PT10M, then the second from PT10M6.25S.
    assertThat(r.billedNodeHours()).isCloseTo((599 + (900 - 606.25)) / 3600.0,
        org.assertj.core.data.Offset.offset(1e-9));
    assertThat(r.jobsLaunchedFor()).isEqualTo(1);
    assertThat(r.partialGangsBilled()).isZero();
    assertThat(r.orphans()).isZero();
    assertThat(provider.list("sim")).hasSize(1);
  }

  private ElasticSimulation.Result mixed(long seed) {
    ManualClock c = new ManualClock(T0);
    SplittableRandom rnd = new SplittableRandom(seed);
    SimulatedProvider provider = new SimulatedProvider(c, CATALOGUE, rnd.split()).bootLatency(BOOT)
        .spotInsufficientCapacityProbability(0.3).capacity(SPOT_AZ3, 6);
    List<ElasticSimulation.JobSpec> work = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      work.add(new ElasticSimulation.JobSpec(Duration.ofSeconds(rnd.nextInt(3600)), 1 + rnd.nextInt(4),
          rnd.nextBoolean() ? 8 : 4, Duration.ofMinutes(5 + rnd.nextInt(60))));
    }
    return new ElasticSimulation(ElasticSimulation.Setup.of("sim", "gpu", nodes(16, 4),
        CapacityPolicy.defaults("p5.48xlarge")), c, provider).run(work);
  }

  @Test
  void theSameSeedGivesTheSameRun() {
    ElasticSimulation.Result a = mixed(42);
    ElasticSimulation.Result b = mixed(42);
    assertThat(a).isEqualTo(b);
    assertThat(a.finished()).isTrue();
    assertThat(a.jobsCompleted()).isEqualTo(40);
    assertThat(a.failedLaunchCalls()).isPositive();
    assertThat(a.partialGangsBilled()).isZero();
    assertThat(a.orphans()).isZero();
    assertThat(mixed(43).events()).isNotEqualTo(a.events());
  }
}
