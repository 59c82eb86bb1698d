package io.squall.simulate;

import static io.squall.simulate.ElasticFixtures.BOOT;
import static io.squall.simulate.ElasticFixtures.CATALOGUE;
import static io.squall.simulate.ElasticFixtures.T0;
import static io.squall.simulate.ElasticFixtures.at;
import static io.squall.simulate.ElasticFixtures.nodes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.squall.core.provision.CapacityPolicy;
import io.squall.core.spot.Interruption;
import io.squall.core.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ElasticSimulationInterruptionTest {
  private static final Duration NOTICE = Duration.ofMinutes(2);
  private static final Checkpointing ON_SIGNAL = Checkpointing.onSignal(Duration.ofSeconds(30), Duration.ofMinutes(30));
  private static final Checkpointing EVERY_30_MIN = Checkpointing.everyInterval(Duration.ofMinutes(30),
      Duration.ofSeconds(30));

  private final ManualClock clock = new ManualClock(T0);

  /** The first {@code count} spot instances launched get a notice {@code after} their launch; later ones never. */
  private static SpotReclaims firstInstances(int count, Duration after) {
    int[] seen = {0};
    return (instance, launchedAt) -> seen[0]++ < count
        ? new Interruption(instance.nodeName(), instance.id(), Interruption.Source.AWS_METADATA,
            Interruption.Kind.TERMINATION, launchedAt.plus(after), launchedAt.plus(after).plus(NOTICE), "test")
        : null;
  }

  private ElasticSimulation.Result run(SpotReclaims reclaims, InterruptionRules rules, List<ElasticSimulation.JobSpec> work) {
    SimulatedProvider provider = new SimulatedProvider(clock, CATALOGUE, new SplittableRandom(1)).bootLatency(BOOT)
        .reclaims(reclaims);
    // Placement groups of one node: a replacement may go to any zone.
    return new ElasticSimulation(ElasticSimulation.Setup.of("sim", "gpu", nodes(4, 1),
        CapacityPolicy.defaults("p5.48xlarge")), clock, provider, rules).run(work);
  }

  private static String event(ElasticSimulation.Result r, String containing) {
    return r.events().stream().filter(e -> e.contains(containing)).findFirst().orElseThrow(
        () -> new AssertionError("no event with '" + containing + "' in " + r.events()));
  }

  /** A 60 min 8-GPU job whose first node gets a notice 34 min after its launch (31 min into its run). */
  private static List<ElasticSimulation.JobSpec> oneHourJobThenAnotherAt37Min() {
    return List.of(new ElasticSimulation.JobSpec(Duration.ZERO, 1, 8, Duration.ofMinutes(60)),
        new ElasticSimulation.JobSpec(Duration.ofMinutes(37), 1, 8, Duration.ofMinutes(10)));
  }

  @Test
  void aJobInterruptedOnceCheckpointsOnTheSignalIsRequeuedAndCompletes() {
    ElasticSimulation.Result r = run(firstInstances(1, Duration.ofMinutes(34)), InterruptionRules.defaults(),
        oneHourJobThenAnotherAt37Min());

    assertThat(r.finished()).isTrue();
    assertThat(r.jobsCompleted()).isEqualTo(2);
    assertThat(r.interruptions()).isEqualTo(1);
    assertThat(r.interruptionRequeues()).isEqualTo(1);
    assertThat(r.jobsHeld()).isZero();
    // Launched at 1 s, running at 3:01; notice at 34:01; checkpoint written 30 s later, then stopped.
    assertThat(at(event(r, " notice p5-001 p5.48xlarge/use1-az3/SPOT"))).isEqualTo(Duration.parse("PT34M1S"));
    String stopped = event(r, " interrupted 1: ");
    assertThat(at(stopped)).isEqualTo(Duration.parse("PT34M31S"));
    assertThat(stopped).contains("stopped, PT31M kept, 240 GPU-s lost; requeued (restart 1)");
    assertThat(r.lostGpuHours()).isCloseTo(30 * 8 / 3600.0, within(1e-9));
    // The rest (29 min) runs on another node from 37:32 (a new launch, 3 min boot).
    assertThat(r.requeueToRestartMs()).containsExactly(Duration.parse("PT3M1S").toMillis());
    assertThat(at(event(r, " end 1 COMPLETED"))).isEqualTo(Duration.parse("PT37M32S").plusMinutes(29));
    // From the notice its offering is left alone (job 2 gets spot in az1); once the job is off it the machine goes.
    assertThat(event(r, " offering p5.48xlarge/use1-az3/SPOT unavailable")).startsWith(
        "PT34M1S offering p5.48xlarge/use1-az3/SPOT unavailable until PT39M1S: interrupted");
    assertThat(at(event(r, " release 1 nodes: spot interruption"))).isEqualTo(Duration.parse("PT34M31S"));
    String secondLaunch = r.events().stream().filter(e -> e.contains(" launch ") && at(e).compareTo(
        Duration.ofMinutes(37)) >= 0).findFirst().orElseThrow();
    assertThat(secondLaunch).contains("1 nodes p5.48xlarge/use1-az1/SPOT");
    assertThat(r.orphans()).isZero();
  }

  @Test
  void withoutTheSignalTheWorkSinceTheLastIntervalCheckpointIsLost() {
    ElasticSimulation.Result signal = run(firstInstances(1, Duration.ofMinutes(34)), InterruptionRules.defaults(),
        oneHourJobThenAnotherAt37Min());
    ElasticSimulation.Result noSignal = run(firstInstances(1, Duration.ofMinutes(34)),
        InterruptionRules.defaults().withJobs(EVERY_30_MIN), oneHourJobThenAnotherAt37Min());

    // Stopped at the deadline minus the 10 s margin; the checkpoint of 33:01 (written 33:31) is the newest.
    String stopped = event(noSignal, " interrupted 1: ");
    assertThat(at(stopped)).isEqualTo(Duration.parse("PT35M51S"));
    assertThat(stopped).contains("stopped, PT30M kept, 1360 GPU-s lost");
    assertThat(noSignal.lostGpuHours()).isCloseTo(170 * 8 / 3600.0, within(1e-9));
    assertThat(signal.lostGpuHours()).isLessThan(noSignal.lostGpuHours());
    assertThat(noSignal.jobsCompleted()).isEqualTo(2);
  }

  @Test
  void aJobWhoseNodeIsInterruptedWhileBootingIsRequeuedAtOnceWithNothingLost() {
    ElasticSimulation.Result r = run(firstInstances(1, Duration.ofMinutes(1)), InterruptionRules.defaults(),
        List.of(new ElasticSimulation.JobSpec(Duration.ZERO, 1, 8, Duration.ofMinutes(20))));

    String requeued = event(r, " interrupted 1: ");
    assertThat(at(requeued)).isEqualTo(Duration.parse("PT1M1S"));
    assertThat(requeued).contains("interrupted before the job ran; requeued (restart 1)");
    assertThat(r.lostGpuHours()).isZero();
    assertThat(r.jobsCompleted()).isEqualTo(1);
    assertThat(r.finished()).isTrue();
  }

  @Test
  void upNodesThatWaitedForAGangsBootingNodeTheCloudTookAreCountedAsLostToTheReclaimNotAsStranded() {
    // Job 1 brings p5-001 up; job 2 (2 nodes) then takes it and p5-002, whose first machine is
    // reclaimed a minute into its boot.
    boolean[] reclaimed = {false};
    SpotReclaims secondNodeOnce = (instance, launchedAt) -> {
      if (!instance.nodeName().equals("p5-002") || reclaimed[0]) {
        return null;
      }
      reclaimed[0] = true;
      return new Interruption(instance.nodeName(), instance.id(), Interruption.Source.AWS_METADATA,
          Interruption.Kind.TERMINATION, launchedAt.plusSeconds(60), launchedAt.plusSeconds(60).plus(NOTICE), "test");
    };
    SimulatedProvider provider = new SimulatedProvider(clock, CATALOGUE, new SplittableRandom(1)).bootLatency(BOOT)
        .reclaims(secondNodeOnce);
    ElasticSimulation.Result r = new ElasticSimulation(ElasticSimulation.Setup.of("sim", "gpu", nodes(4, 2),
        CapacityPolicy.defaults("p5.48xlarge")), clock, provider, InterruptionRules.defaults()).run(List.of(
            new ElasticSimulation.JobSpec(Duration.ZERO, 1, 8, Duration.ofMinutes(5)),
            new ElasticSimulation.JobSpec(Duration.ofMinutes(9), 2, 8, Duration.ofMinutes(5))));

    // p5-001 waited from 9:00 (allocated) to 10:01 (the notice): lost to the reclaim.
    assertThat(event(r, " interrupted 2: ")).startsWith("PT10M1S ")
        .contains("node p5-002 interrupted before the job ran");
    assertThat(r.bootWaitLostNodeHours() * 3600).isCloseTo(61, within(1e-6));
    assertThat(r.strandedNodeHours()).isZero();
    // Requeued, job 2 goes whole to the other zone's placement group; p5-001 cannot join it and
    // is given back at once, not after SuspendTime.
    assertThat(event(r, " launch pg1 2 nodes")).startsWith("PT10M2S ").contains("use1-az1/SPOT");
    assertThat(event(r, " cloud p5-001")).isEqualTo(
        "PT10M1S cloud p5-001: powered down: job 2 left it and now holds other nodes");
    assertThat(r.jobsCompleted()).isEqualTo(2);
  }

  @Test
  void aJobInterruptedAgainWaitsTheBackoffAndIsHeldPastMaxRestarts() {
    InterruptionRules rules = new InterruptionRules(Duration.ofSeconds(10), 2, Duration.ofSeconds(30), ON_SIGNAL);
    ElasticSimulation.Result r = run(firstInstances(100, Duration.ofMinutes(10)), rules,
        List.of(new ElasticSimulation.JobSpec(Duration.ZERO, 1, 8, Duration.ofHours(10))));

    List<String> interrupted = r.events().stream().filter(e -> e.contains(" interrupted 1: ")).toList();
    assertThat(interrupted).hasSize(3);
    assertThat(interrupted.get(0)).endsWith("; requeued (restart 1)");
    Duration second = at(interrupted.get(1));
    assertThat(interrupted.get(1)).endsWith("; requeued, not before " + second.plusSeconds(30) + " (restart 2)");
    assertThat(interrupted.get(2)).endsWith("; held: interrupted more often than max-restarts (2) (restart 3)");
    assertThat(r.interruptionRequeues()).isEqualTo(3);
    assertThat(r.jobsHeld()).isEqualTo(1);
    assertThat(r.jobsCompleted()).isZero();
    assertThat(r.requeueToRestartMs()).hasSize(2);
    assertThat(r.requeueToRestartMs().get(1)).isGreaterThanOrEqualTo(30_000);
    assertThat(r.finished()).isTrue(); // a held job waits for an operator: the run is over
    assertThat(r.lostGpuHours()).isCloseTo(3 * 30 * 8 / 3600.0, within(1e-9));
  }

  private ElasticSimulation.Result traced(long seed, Checkpointing jobs) {
    ManualClock c = new ManualClock(T0);
    TraceReclaims reclaims = TraceReclaims.assign(T0, List.of("use1-az1", "use1-az3"), List.of(
        new TraceReclaims.Trace("a", List.of(1, 1, 0, 0, 1, 0), Duration.ofMinutes(10)),
        new TraceReclaims.Trace("b", List.of(1, 0, 1, 1), Duration.ofMinutes(10))), 2.0, 0.25, NOTICE, seed);
    SimulatedProvider provider = new SimulatedProvider(c, CATALOGUE, new SplittableRandom(seed)).bootLatency(BOOT)
        .reclaims(reclaims);
    SplittableRandom rnd = new SplittableRandom(seed);
    List<ElasticSimulation.JobSpec> work = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      work.add(new ElasticSimulation.JobSpec(Duration.ofMinutes(rnd.nextInt(60)), 1 + rnd.nextInt(2), 8,
          Duration.ofMinutes(20 + rnd.nextInt(60))));
    }
    return new ElasticSimulation(ElasticSimulation.Setup.of("sim", "gpu", nodes(8, 1),
        CapacityPolicy.defaults("p5.48xlarge")), c, provider, InterruptionRules.defaults().withJobs(jobs)).run(work);
  }

  @Test
  void theSameSeedGivesTheSameRunWithTraceDrivenInterruptions() {
    ElasticSimulation.Result a = traced(7, ON_SIGNAL);
    assertThat(traced(7, ON_SIGNAL)).isEqualTo(a);
    assertThat(a.interruptions()).isPositive();
    assertThat(a.interruptionRequeues()).isPositive();
    assertThat(a.finished()).isTrue();
    assertThat(a.jobsCompleted() + a.jobsHeld()).isEqualTo(12);
    assertThat(a.orphans()).isZero();
    assertThat(traced(8, ON_SIGNAL).events()).isNotEqualTo(a.events());
    assertThat(traced(7, EVERY_30_MIN).lostGpuHours()).isGreaterThan(a.lostGpuHours());
  }
}
