package io.squall.simulate;

import static io.squall.simulate.ElasticFixtures.BOOT;
import static io.squall.simulate.ElasticFixtures.CATALOGUE;
import static io.squall.simulate.ElasticFixtures.SPOT_AZ1;
import static io.squall.simulate.ElasticFixtures.SPOT_AZ3;
import static io.squall.simulate.ElasticFixtures.T0;
import static io.squall.simulate.ElasticFixtures.nodes;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.JobState;
import io.squall.core.money.Budget;
import io.squall.core.money.BudgetPeriod;
import io.squall.core.provider.CapacityType;
import io.squall.core.provision.CapacityPolicy;
import io.squall.core.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Deadlines and budgets in the simulation: the controller's own money rules, in virtual time. */
class ElasticSimulationMoneyRulesTest {
  private final ManualClock clock = new ManualClock(T0);

  private SimulatedProvider provider(boolean spot) {
    SimulatedProvider p = new SimulatedProvider(clock, CATALOGUE, new SplittableRandom(7)).bootLatency(BOOT);
    if (!spot) {
      p.capacity(SPOT_AZ1, 0).capacity(SPOT_AZ3, 0);
    }
    return p;
  }

  private static ElasticSimulation.Setup setup(int nodes) {
    return ElasticSimulation.Setup.of("sim", "gpu", nodes(nodes, 4), CapacityPolicy.defaults("p5.48xlarge"))
        .withSchedulerInterval(Duration.ofSeconds(10)).withMaxTime(Duration.ofDays(2));
  }

  private static ElasticSimulation.JobSpec job(Duration submit, int nodes, Duration runtime) {
    return new ElasticSimulation.JobSpec(submit, nodes, 8, runtime);
  }

  @Test
  void aDeadlineJobWithNoSpotGoesOnDemandWhenBehindAndMeetsItsDeadline() {
    ElasticSimulation.Result r = new ElasticSimulation(setup(4), clock, provider(false)).run(List.of(
        job(Duration.ZERO, 2, Duration.ofHours(1)).withDeadline(Duration.ofMinutes(90))));

    ElasticSimulation.JobOutcome o = r.outcomes().get(0);
    assertThat(o.state()).isEqualTo(JobState.COMPLETED);
    assertThat(o.missedDeadline()).isFalse();
    assertThat(o.capacityTypes()).containsExactly(CapacityType.ON_DEMAND);
    // Ahead of uniform progress at submission (spot only, none to be had), behind a moment later:
    // on-demand at once, well before the partition's own 5 min wait for spot.
    assertThat(r.launches()).filteredOn(l -> l.capacityType() == CapacityType.ON_DEMAND).first()
        .satisfies(l -> assertThat(l.at()).isLessThan(Duration.ofMinutes(5)));
  }

  @Test
  void aDeadlineJobWithSpotRunsOnSpot() {
    ElasticSimulation.Result r = new ElasticSimulation(setup(4), clock, provider(true)).run(List.of(
        job(Duration.ZERO, 2, Duration.ofHours(1)).withDeadline(Duration.ofHours(3))));

    ElasticSimulation.JobOutcome o = r.outcomes().get(0);
    assertThat(o.state()).isEqualTo(JobState.COMPLETED);
    assertThat(o.missedDeadline()).isFalse();
    assertThat(o.capacityTypes()).containsExactly(CapacityType.SPOT);
  }

  @Test
  void noJobStartsOnceSpendAndItsWorstCaseWouldPassTheHardLimit() {
    // Worst case of a 1-node job of 1 h (65 min limit): 8 GPUs x 65 min at the dearest 98.32/8 per
    // GPU-hour = 106.5 USD; each costs some 22 USD on spot. With 300 USD two start at first, then
    // one more each time spend and the running jobs' worst cases leave room, then none: 16 would cost 350.
    List<ElasticSimulation.JobSpec> work = new java.util.ArrayList<>();
    for (int i = 0; i < 16; i++) {
      work.add(job(Duration.ZERO, 1, Duration.ofHours(1)).withAccount("team-a"));
    }
    ElasticSimulation.Setup setup = setup(16).withBudgets(List.of(
        new Budget("team-a", null, 300.0, BudgetPeriod.MONTH, false, List.of())));
    ElasticSimulation.Result r = new ElasticSimulation(setup, clock, provider(true)).run(work);

    List<ElasticSimulation.StartRecord> starts = r.outcomes().stream().flatMap(o -> o.starts().stream()).toList();
    assertThat(starts).isNotEmpty().noneMatch(ElasticSimulation.StartRecord::pastHardLimit);
    assertThat(r.outcomes()).filteredOn(o -> o.firstStart() != null).hasSizeBetween(2, 15);
    assertThat(r.outcomes()).filteredOn(o -> o.firstStart() == null).isNotEmpty()
        .allSatisfy(o -> assertThat(o.pendingReason()).isEqualTo("AssocGrpBillingMinutes"));
    // What the started jobs spent stays under the hard limit.
    assertThat(r.outcomes().stream().mapToDouble(ElasticSimulation.JobOutcome::usd).sum()).isLessThan(300);
    assertThat(r.outcomes()).filteredOn(o -> o.firstStart() != null)
        .allSatisfy(o -> assertThat(o.state()).isEqualTo(JobState.COMPLETED));
  }

  /**
   * A job waiting for its account's hard limit starts when the next budget period begins, though
   * nothing else happens then (the cluster idle and powered down): the controller's budget watch
   * adds spend up again in the new period, and so does the simulation.
   */
  @Test
  void aJobHeldByItsBudgetStartsWhenTheNextPeriodBegins() {
    // Worst case of each: 106.5 USD (above); the first costs some 22, so 22 + 106.5 > 120 after it.
    ElasticSimulation.Setup setup = setup(4).withBudgets(List.of(
        new Budget("team-a", null, 120.0, BudgetPeriod.DAY, false, List.of())));
    ElasticSimulation.Result r = new ElasticSimulation(setup, clock, provider(true)).run(List.of(
        job(Duration.ZERO, 1, Duration.ofHours(1)).withAccount("team-a"),
        job(Duration.ZERO, 1, Duration.ofHours(1)).withAccount("team-a")));

    assertThat(r.outcomes()).allSatisfy(o -> assertThat(o.state()).isEqualTo(JobState.COMPLETED));
    Duration midnight = Duration.between(T0, java.time.Instant.parse("2026-11-22T00:00:00Z"));
    assertThat(r.outcomes().get(1).firstStart()).isBetween(midnight, midnight.plusSeconds(30));
  }

  @Test
  void pastItsSoftLimitAnAccountsJobsRunOnSpotOnly() {
    // No spot to be had: team-b's job goes on-demand after the partition's wait; team-a, past its
    // soft limit from the start, waits for spot and never gets on-demand.
    ElasticSimulation.Setup setup = setup(4).withBudgets(List.of(
        new Budget("team-a", 0.0, null, BudgetPeriod.MONTH, false, List.of())));
    ElasticSimulation.Result r = new ElasticSimulation(setup, clock, provider(false)).run(List.of(
        job(Duration.ZERO, 1, Duration.ofMinutes(30)).withAccount("team-a"),
        job(Duration.ZERO, 1, Duration.ofMinutes(30)).withAccount("team-b")));

    assertThat(r.outcomes().get(0).state()).isNull();
    assertThat(r.outcomes().get(0).capacityTypes()).isEmpty();
    assertThat(r.outcomes().get(1).state()).isEqualTo(JobState.COMPLETED);
    assertThat(r.launches()).allSatisfy(l -> {
      assertThat(l.capacityType()).isEqualTo(CapacityType.ON_DEMAND);
      assertThat(l.accounts()).containsExactly("team-b");
    });
  }

  @Test
  void theSameSeedGivesTheSameRun() {
    ElasticSimulation.Setup setup = setup(8).withBudgets(List.of(
        new Budget("team-a", 50.0, 300.0, BudgetPeriod.MONTH, false, List.of())));
    List<ElasticSimulation.JobSpec> work = List.of(
        job(Duration.ZERO, 1, Duration.ofHours(1)).withAccount("team-a").withDeadline(Duration.ofHours(2)),
        job(Duration.ofMinutes(5), 2, Duration.ofMinutes(40)).withAccount("team-a"),
        job(Duration.ofMinutes(7), 1, Duration.ofMinutes(20)).withDeadline(Duration.ofHours(1)));
    ElasticSimulation.Result a = run(setup, work);
    ElasticSimulation.Result b = run(setup, work);
    assertThat(a).isEqualTo(b);
    assertThat(a.budgetSamples()).isNotEmpty();
    assertThat(a.events()).isNotEmpty();
  }

  private static ElasticSimulation.Result run(ElasticSimulation.Setup setup, List<ElasticSimulation.JobSpec> work) {
    ManualClock c = new ManualClock(T0);
    return new ElasticSimulation(setup, c, new SimulatedProvider(c, CATALOGUE, new SplittableRandom(3))
        .bootLatency(BOOT)).run(work);
  }
}
