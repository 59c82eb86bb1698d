package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.jobOf;
import static io.squall.core.schedule.Fixtures.nodes;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Account;
import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.Node;
import io.squall.core.model.PreemptMode;
import io.squall.core.model.JobKey;
import io.squall.core.model.Partition;
import io.squall.core.model.Qos;
import io.squall.core.model.UsageLedger;
import io.squall.core.model.UserAssociation;
import io.squall.core.money.Budget;
import io.squall.core.money.BudgetPeriod;
import io.squall.core.money.Budgets;
import io.squall.core.provider.CapacityType;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A hard budget in the scheduler: team {@code ml} (with sub-account {@code ml-vision}) may spend
 * $100 a month; the {@code gpu} partition's GPU-hour costs at most $4. A job starts only when its
 * worst case (its GPUs for its whole time limit at that price) fits what is left after what the
 * running jobs may still cost; otherwise it waits with Slurm's AssocGrpBillingMinutes.
 */
class BudgetSchedulingTest {
  private final Scheduler scheduler = new Scheduler(SchedulerConfig.defaults());
  private static final Partition GPU = Partition.of("gpu", List.of("gpu001", "gpu002", "gpu003")).asDefault();
  private static final Partition FREE = Partition.of("free", List.of("gpu004"));
  private static final List<Account> ACCOUNTS = List.of(new Account("ml", null, 1),
      new Account("ml-vision", "ml", 1), new Account("research", null, 1));
  private static final Budgets BUDGETS = new Budgets(
      List.of(new Budget("ml", null, 100.0, BudgetPeriod.MONTH, false, List.of(50, 80, 100)),
          new Budget("research", 10.0, 100.0, BudgetPeriod.MONTH, false, List.of())), ACCOUNTS);
  /** A GPU-hour in gpu costs at most $2 on spot, $4 on-demand; nothing in free. */
  private static final Map<String, Map<CapacityType, Double>> WORST = Map.of(
      "gpu", Map.of(CapacityType.SPOT, 2.0, CapacityType.ON_DEMAND, 4.0), "free", Map.of());
  private static final Qos URGENT = new Qos("urgent", 0, Set.of(), PreemptMode.REQUEUE, null, null,
      Set.of(CapacityType.ON_DEMAND));

  private static ClusterSnapshot snapshot(double mlSpent, List<Job> jobs) {
    return snapshot(mlSpent, 0, nodes("gpu", 4, 4), jobs);
  }

  private static ClusterSnapshot snapshot(double mlSpent, double researchSpent, List<Node> nodes, List<Job> jobs) {
    List<Budgets.Standing> standings = BUDGETS.standings(T0, ZoneOffset.UTC,
        since -> Map.of("ml", mlSpent, "research", researchSpent));
    return new ClusterSnapshot(nodes, List.of(GPU, FREE), Map.of("normal", Qos.normal(), "urgent", URGENT), ACCOUNTS,
        List.of(new UserAssociation("alice", "ml", 1), new UserAssociation("vera", "ml-vision", 1),
            new UserAssociation("bob", "research", 1)),
        jobs, UsageLedger.empty(T0, Duration.ofDays(7)))
        .withBudgets(BUDGETS.limits(standings, WORST));
  }

  private static List<String> nodesOf(Plan plan, long id) {
    return plan.starts().stream().filter(s -> s.job().equals(JobKey.of(id))).flatMap(s -> s.grants().stream())
        .map(GpuGrant::node).toList();
  }

  private static Action.Wait waitOf(Plan plan, long id) {
    return plan.waits().stream().filter(w -> w.job().equals(JobKey.of(id))).findFirst().orElseThrow();
  }

  private static boolean started(Plan plan, long id) {
    return plan.starts().stream().anyMatch(s -> s.job().equals(JobKey.of(id)));
  }

  @Test
  void aSpentHardBudgetStopsEveryNewJobOfTheTeamAndItsSubAccountsOnly() {
    Plan plan = scheduler.cycle(snapshot(100, List.of(jobOf(1, "alice", "ml", "--gres=gpu:1 -t 1"),
        jobOf(2, "vera", "ml-vision", "-p free --gres=gpu:1 -t 1"), jobOf(3, "bob", "research", "--gres=gpu:8 -t 60"))),
        T0);
    assertThat(waitOf(plan, 1).reason()).isEqualTo(PendingReason.ASSOC_GRP_BILLING_MINUTES);
    assertThat(waitOf(plan, 2).reason()).isEqualTo(PendingReason.ASSOC_GRP_BILLING_MINUTES);
    assertThat(PendingReason.ASSOC_GRP_BILLING_MINUTES.slurmName()).isEqualTo("AssocGrpBillingMinutes");
    assertThat(started(plan, 3)).isTrue();
  }

  @Test
  void aJobStartsOnlyWhenItsWorstCaseFitsWhatIsLeftCountingJobsStartedBeforeIt() {
    // $40 left. Job 1: 8 GPUs × 1 h × $4 = $32, fits. Job 2 (a sub-account's): another $32, does
    // not fit the $8 then left. Job 3: 1 GPU × 1 h = $4, fits.
    Plan plan = scheduler.cycle(snapshot(60, List.of(jobOf(1, "alice", "ml", "--gres=gpu:8 -t 60"),
        jobOf(2, "vera", "ml-vision", "--gres=gpu:8 -t 60"), jobOf(3, "alice", "ml", "--gres=gpu:1 -t 60"))), T0);
    assertThat(started(plan, 1)).isTrue();
    assertThat(waitOf(plan, 2).reason()).isEqualTo(PendingReason.ASSOC_GRP_BILLING_MINUTES);
    assertThat(started(plan, 3)).isTrue();
  }

  @Test
  void whatRunningJobsMayStillCostIsSetAsideAndAJobWithoutATimeLimitHasNoWorstCaseToFit() {
    List<GpuGrant> node1 = List.of(new GpuGrant("gpu001", List.of(0, 1, 2, 3, 4, 5, 6, 7), 1, 0));
    // Running since 30 min with a 60 min limit: 8 GPUs × 0.5 h × $4 = $16 of the $40 set aside.
    Job running = jobOf(10, "alice", "ml", "--gres=gpu:8 -t 60").started(JobKey.of(10), "gpu", node1,
        T0.minus(Duration.ofMinutes(30)));
    // $24 free: 8 GPUs for 50 min ($26.67) do not fit, for 40 min ($21.33) they do.
    Plan plan = scheduler.cycle(snapshot(60, List.of(running, jobOf(1, "alice", "ml", "--gres=gpu:8 -t 50"),
        jobOf(2, "alice", "ml", "--gres=gpu:8 -t 40"))), T0);
    assertThat(waitOf(plan, 1).reason()).isEqualTo(PendingReason.ASSOC_GRP_BILLING_MINUTES);
    assertThat(started(plan, 2)).isTrue();
    plan = scheduler.cycle(snapshot(0, List.of(jobOf(4, "alice", "ml", "--gres=gpu:1 -t UNLIMITED"),
        jobOf(5, "alice", "ml", "-p free --gres=gpu:1 -t UNLIMITED"))), T0);
    assertThat(waitOf(plan, 4).reason()).isEqualTo(PendingReason.ASSOC_GRP_BILLING_MINUTES);
    assertThat(started(plan, 5)).isTrue(); // nothing is billed in it
  }

  @Test
  void pastItsSoftLimitAnAccountsJobsKeepOffOnDemandMachinesAndTheirWorstCaseIsPricedAtSpot() {
    // gpu001's machine is on-demand, gpu002's spot; gpu003 is static (no machine): any job may use it.
    List<Node> machines = nodes("gpu", 4, 4);
    machines = List.of(machines.get(0).withMachine("az1", CapacityType.ON_DEMAND),
        machines.get(1).withMachine("az1", CapacityType.SPOT), machines.get(2), machines.get(3));
    // research has spent $20 of its $10 soft limit, $80 of its $100 hard one is left: 8 GPUs for
    // 4 h cost at worst $64 on spot (fits) and $128 on-demand (would not).
    Plan plan = scheduler.cycle(snapshot(0, 20, machines, List.of(jobOf(1, "bob", "research", "--gres=gpu:8 -t 240"),
        jobOf(2, "bob", "research", "--gres=gpu:1 -t 1"), jobOf(3, "bob", "research", "--gres=gpu:1 -t 1"))), T0);
    assertThat(nodesOf(plan, 1)).containsExactly("gpu002");
    assertThat(nodesOf(plan, 2)).containsExactly("gpu003"); // not gpu001, though it is free
    assertThat(nodesOf(plan, 3)).containsExactly("gpu003");
    // Under its soft limit the same job may run anywhere, so its worst case is on-demand's.
    plan = scheduler.cycle(snapshot(0, 5, machines, List.of(jobOf(1, "bob", "research", "--gres=gpu:8 -t 240"))), T0);
    assertThat(waitOf(plan, 1).reason()).isEqualTo(PendingReason.ASSOC_GRP_BILLING_MINUTES);
    // An on-demand QOS keeps its jobs off spot machines (static nodes are fine).
    Job urgent = Job.pending(4, Fixtures.request("--gres=gpu:8 -t 1"), "alice", "ml", "urgent", T0);
    Job urgent2 = Job.pending(5, Fixtures.request("--gres=gpu:8 -t 1"), "alice", "ml", "urgent", T0);
    Job urgent3 = Job.pending(6, Fixtures.request("--gres=gpu:8 -t 1"), "alice", "ml", "urgent", T0);
    plan = scheduler.cycle(snapshot(0, 0, machines, List.of(urgent, urgent2, urgent3)), T0);
    assertThat(plan.starts().stream().flatMap(s -> s.grants().stream()).map(GpuGrant::node))
        .containsExactlyInAnyOrder("gpu001", "gpu003");
  }
}
