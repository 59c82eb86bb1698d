package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.jobOf;
import static io.squall.core.schedule.Fixtures.simple;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Account;
import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.PreemptMode;
import io.squall.core.model.Qos;
import io.squall.core.model.Tres;
import io.squall.core.model.UsageLedger;
import io.squall.core.model.UserAssociation;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * QOS and association limits (Slurm's resource_limits.html): a job over one waits with slurmctld's
 * reason, and starts once running jobs have made room.
 */
class AccountingLimitsTest {
  private static final Qos NORMAL = new Qos("normal", 0, Set.of(), PreemptMode.REQUEUE, null, null);

  /** alice in ml and carol in vision, both under the lab account; bob in research. */
  private static ClusterSnapshot cluster(int nodes, Qos qos, Account.Limits lab, Account.Limits ml, List<Job> jobs) {
    ClusterSnapshot base = simple(nodes, nodes, jobs);
    return new ClusterSnapshot(base.nodes(), base.partitions(), Map.of("normal", qos),
        List.of(new Account("lab", null, 1, lab), new Account("ml", "lab", 1, ml), new Account("vision", "lab", 1),
            new Account("research", null, 1)),
        List.of(new UserAssociation("alice", "ml", 1), new UserAssociation("carol", "vision", 1),
            new UserAssociation("bob", "research", 1)),
        jobs, UsageLedger.empty(T0, Duration.ofDays(7)));
  }

  private static Account.Limits grpTres(String tres) {
    return new Account.Limits(Tres.parse(tres), null, null, null);
  }

  private static PendingReason reasonOf(Plan plan, long id) {
    return plan.waits().stream().filter(w -> w.job().equals(JobKey.of(id))).findFirst().orElseThrow().reason();
  }

  private static Harness harness(ClusterSnapshot s) {
    return new Harness(SchedulerConfig.defaults(), s, T0);
  }

  /** Waits with {@code reason} while job 1 runs, and starts in the cycle after job 1 ends at 30 minutes. */
  private static void waitsThenStarts(Harness h, long id, PendingReason reason) {
    h.runtime(1, Duration.ofMinutes(30));
    assertThat(reasonOf(h.cycle(), id)).isEqualTo(reason);
    h.advance(Duration.ofMinutes(30));
    h.cycle();
    assertThat(h.job(JobKey.of(id)).state()).isEqualTo(JobState.RUNNING);
  }

  @Test
  void qosMaxJobsPerUserLimitsEachUserApart() {
    Qos qos = NORMAL.withUserLimits(Tres.NONE, 1, null);
    Harness h = harness(cluster(1, qos, Account.Limits.NONE, Account.Limits.NONE, List.of(
        jobOf(1, "alice", "ml", "--gres=gpu:1 -t 60"), jobOf(2, "alice", "ml", "--gres=gpu:1 -t 60"),
        jobOf(3, "bob", "research", "--gres=gpu:1 -t 60"))));
    h.runtime(1, Duration.ofMinutes(30));
    Plan first = h.cycle();
    assertThat(reasonOf(first, 2)).isEqualTo(PendingReason.QOS_MAX_JOBS_PER_USER);
    assertThat(first.starts()).extracting(Action.Start::job).containsExactlyInAnyOrder(JobKey.of(1), JobKey.of(3));
    h.advance(Duration.ofMinutes(30));
    h.cycle();
    assertThat(h.job(JobKey.of(2)).state()).isEqualTo(JobState.RUNNING);
  }

  @Test
  void qosMaxTresPerUserOnGpus() {
    Qos qos = NORMAL.withUserLimits(Tres.parse("gres/gpu=8"), null, null);
    waitsThenStarts(harness(cluster(2, qos, Account.Limits.NONE, Account.Limits.NONE, List.of(
        jobOf(1, "alice", "ml", "--gres=gpu:6"), jobOf(2, "alice", "ml", "--gres=gpu:4"),
        jobOf(3, "bob", "research", "--gres=gpu:4")))), 2, PendingReason.QOS_MAX_GRES_PER_USER);
  }

  @Test
  void qosMaxTresPerUserOnCpusAndNodes() {
    Qos cpus = NORMAL.withUserLimits(Tres.parse("cpu=16"), null, null);
    assertThat(reasonOf(harness(cluster(2, cpus, Account.Limits.NONE, Account.Limits.NONE, List.of(
        jobOf(1, "alice", "ml", "--gres=gpu:1 -c 12"), jobOf(2, "alice", "ml", "--gres=gpu:1 -c 8")))).cycle(), 2))
        .isEqualTo(PendingReason.QOS_MAX_CPU_PER_USER);
    Qos nodes = NORMAL.withUserLimits(Tres.parse("node=1"), null, null);
    assertThat(reasonOf(harness(cluster(2, nodes, Account.Limits.NONE, Account.Limits.NONE, List.of(
        jobOf(1, "alice", "ml", "--gres=gpu:8"), jobOf(2, "alice", "ml", "--gres=gpu:8")))).cycle(), 2))
        .isEqualTo(PendingReason.QOS_MAX_NODE_PER_USER);
  }

  @Test
  void qosGrpTresOnCpusCountsEveryUser() {
    Qos qos = NORMAL.withGrpTres(Tres.parse("cpu=20"));
    waitsThenStarts(harness(cluster(2, qos, Account.Limits.NONE, Account.Limits.NONE, List.of(
        jobOf(1, "alice", "ml", "--gres=gpu:1 -c 16"), jobOf(2, "bob", "research", "--gres=gpu:1 -c 8")))), 2,
        PendingReason.QOS_GRP_CPU);
  }

  @Test
  void accountMaxJobsHoldsForEachUserAndSubAccountsInheritIt() {
    Account.Limits maxOne = new Account.Limits(Tres.NONE, null, 1, null);
    // Set on lab, inherited by ml (which sets none): alice may run one job.
    waitsThenStarts(harness(cluster(1, NORMAL, maxOne, Account.Limits.NONE, List.of(
        jobOf(1, "alice", "ml", "--gres=gpu:1"), jobOf(2, "alice", "ml", "--gres=gpu:1"),
        jobOf(3, "carol", "vision", "--gres=gpu:1")))), 2, PendingReason.ASSOC_MAX_JOBS);
  }

  @Test
  void accountGrpTresOnGpusCountsItsSubAccountsTogether() {
    Harness h = harness(cluster(2, NORMAL, grpTres("gres/gpu=8"), Account.Limits.NONE, List.of(
        jobOf(1, "alice", "ml", "--gres=gpu:6"), jobOf(2, "carol", "vision", "--gres=gpu:4"),
        jobOf(3, "bob", "research", "--gres=gpu:4"))));
    waitsThenStarts(h, 2, PendingReason.ASSOC_GRP_GRES);
    assertThat(h.plans.get(0).starts()).extracting(Action.Start::job).contains(JobKey.of(3));
  }

  @Test
  void accountGrpTresOnCpusMemoryAndNodes() {
    assertThat(reasonOf(harness(cluster(2, NORMAL, Account.Limits.NONE, grpTres("cpu=10"), List.of(
        jobOf(1, "alice", "ml", "--gres=gpu:1 -c 8"), jobOf(2, "alice", "ml", "--gres=gpu:1 -c 4")))).cycle(), 2))
        .isEqualTo(PendingReason.ASSOC_GRP_CPU);
    assertThat(reasonOf(harness(cluster(2, NORMAL, Account.Limits.NONE, grpTres("mem=100G"), List.of(
        jobOf(1, "alice", "ml", "--gres=gpu:1 --mem=80G"), jobOf(2, "alice", "ml", "--gres=gpu:1 --mem=40G"))))
        .cycle(), 2)).isEqualTo(PendingReason.ASSOC_GRP_MEM);
    waitsThenStarts(harness(cluster(2, NORMAL, Account.Limits.NONE, grpTres("node=1"), List.of(
        jobOf(1, "alice", "ml", "--gres=gpu:8"), jobOf(2, "alice", "ml", "--gres=gpu:8")))), 2,
        PendingReason.ASSOC_GRP_NODE);
  }

  /** An exclusive job holds its whole node: all eight GPUs count against GrpTRES, not the one it asked for. */
  @Test
  void anExclusiveJobCountsItsWholeNode() {
    waitsThenStarts(harness(cluster(2, NORMAL, grpTres("gres/gpu=8"), Account.Limits.NONE, List.of(
        jobOf(1, "alice", "ml", "--exclusive --gres=gpu:1"), jobOf(2, "alice", "ml", "--gres=gpu:1")))), 2,
        PendingReason.ASSOC_GRP_GRES);
    // Before it runs too: asking for one GPU, it would take a node of eight past a limit of four.
    assertThat(reasonOf(harness(cluster(2, NORMAL, grpTres("gres/gpu=4"), Account.Limits.NONE, List.of(
        jobOf(1, "alice", "ml", "--exclusive --gres=gpu:1")))).cycle(), 1)).isEqualTo(PendingReason.ASSOC_GRP_GRES);
  }

  /** GrpTRESMins on an account counts its sub-accounts' decayed usage and what running jobs may still use. */
  @Test
  void accountGrpGpuMinutesCountsUsageAndRunningJobs() {
    Account.Limits minutes = new Account.Limits(Tres.NONE, 1000L, null, null);
    ClusterSnapshot used = cluster(1, NORMAL, minutes, Account.Limits.NONE,
        List.of(jobOf(2, "carol", "vision", "--gres=gpu:8 -t 60")))
        .withUsage(UsageLedger.empty(T0, Duration.ofDays(7)).plus("ml", "alice", "normal", 600 * 60.0));
    assertThat(reasonOf(harness(used).cycle(), 2)).isEqualTo(PendingReason.ASSOC_GRP_GRES_MINUTES);
    // 480 GPU-minutes committed by job 1 and 480 asked by job 2 fit; a third job's 480 do not.
    Harness h = harness(cluster(2, NORMAL, minutes, Account.Limits.NONE, List.of(
        jobOf(1, "alice", "ml", "--gres=gpu:8 -t 60"), jobOf(2, "carol", "vision", "--gres=gpu:8 -t 60"),
        jobOf(3, "carol", "vision", "--gres=gpu:1 -t 60"))));
    assertThat(reasonOf(h.cycle(), 3)).isEqualTo(PendingReason.ASSOC_GRP_GRES_MINUTES);
  }

  /** UsageFactor=0: the QOS's jobs charge nothing, so its GrpTRESMins never holds them back. */
  @Test
  void aFreeQosChargesNothingToGrpTresMins() {
    Qos limited = new Qos("normal", 0, Set.of(), PreemptMode.REQUEUE, null, 100L);
    List<Job> jobs = List.of(jobOf(1, "alice", "ml", "--gres=gpu:8 -t 60"));
    assertThat(reasonOf(harness(cluster(1, limited, Account.Limits.NONE, Account.Limits.NONE, jobs)).cycle(), 1))
        .isEqualTo(PendingReason.QOS_GRP_GRES_MINUTES);
    Plan free = harness(cluster(1, limited.withUsageFactor(0), Account.Limits.NONE,
        new Account.Limits(Tres.NONE, 100L, null, null), jobs)).cycle();
    assertThat(free.starts()).hasSize(1);
  }
}
