package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.job;
import static io.squall.core.schedule.Fixtures.names;
import static io.squall.core.schedule.Fixtures.nodes;
import static io.squall.core.schedule.Fixtures.simple;
import static io.squall.core.schedule.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.Node;
import io.squall.core.model.Partition;
import io.squall.core.model.PreemptMode;
import io.squall.core.model.Qos;
import io.squall.core.model.UsageLedger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchedulerScenarioTest {
  private final Scheduler scheduler = new Scheduler(SchedulerConfig.defaults());

  private static Job running(long id, String options, Instant started, List<GpuGrant> grants) {
    return job(id, options, started.minusSeconds(60)).started(JobKey.of(id), "gpu", grants, started);
  }

  private static List<GpuGrant> wholeNodes(String... names) {
    List<GpuGrant> out = new ArrayList<>();
    for (String n : names) {
      out.add(new GpuGrant(n, List.of(0, 1, 2, 3, 4, 5, 6, 7), 1, 0));
    }
    return out;
  }

  private static Action.Wait waitOf(Plan plan, long id) {
    return plan.waits().stream().filter(w -> w.job().equals(JobKey.of(id))).findFirst().orElseThrow();
  }

  private static Action.Start startOf(Plan plan, JobKey key) {
    return plan.starts().stream().filter(s -> s.job().equals(key)).findFirst().orElse(null);
  }

  @Test
  void gangWaitsBehindReservationWhileShortJobsBackfillAndStartsOnTime() {
    // Two of four nodes are busy for another hour; a 4-node gang must wait for them.
    Job big = running(1, "-N 2 --gres=gpu:8 -t 90", T0.minus(Duration.ofMinutes(30)), wholeNodes("gpu001", "gpu002"));
    List<Job> jobs = new ArrayList<>(List.of(big, job(2, "-N 4 --gres=gpu:8 -t 120")));
    for (long id = 10; id < 20; id++) {
      jobs.add(job(id, "--gres=gpu:1 -t 30")); // ends before the reservation: may backfill
    }
    jobs.add(job(30, "--gres=gpu:1 -t 180")); // would delay the gang: must wait
    Harness h = new Harness(SchedulerConfig.defaults(), simple(4, 4, jobs), T0)
        .runtime(1, Duration.ofMinutes(90)).runtime(2, Duration.ofMinutes(100)); // job 1 runs to its limit
    for (long id = 10; id < 20; id++) {
      h.runtime(id, Duration.ofMinutes(25));
    }
    Plan first = h.cycle();

    Instant reserved = T0.plus(Duration.ofMinutes(60));
    assertThat(waitOf(first, 2).reason()).isEqualTo(PendingReason.RESOURCES);
    assertThat(waitOf(first, 2).expectedStart()).isEqualTo(reserved);
    for (long id = 10; id < 20; id++) {
      assertThat(startOf(first, JobKey.of(id))).as("job %d backfills", id).isNotNull();
    }
    assertThat(waitOf(first, 30).reason()).isEqualTo(PendingReason.PRIORITY);

    h.runUntil(T0.plus(Duration.ofMinutes(70)), Duration.ofMinutes(5));
    assertThat(h.job(JobKey.of(2)).startTime()).isEqualTo(reserved);
    assertThat(h.job(JobKey.of(2)).allocation()).hasSize(4);
  }

  @Test
  void aCompletingJobIsLeftOutSoTheNextJobTakesTheNodeItWouldHaveTaken() {
    // Job 1, first in the queue, was requeued and its last run may still go on (Slurm's COMPLETING).
    ClusterSnapshot s = simple(1, 1, List.of(job(1, "--gres=gpu:8"), job(2, "--gres=gpu:8")));
    assertThat(startOf(scheduler.cycle(s, T0), JobKey.of(1))).isNotNull();

    Plan plan = scheduler.cycle(s.withCompleting(Set.of(JobKey.of(1))), T0);
    assertThat(startOf(plan, JobKey.of(1))).isNull();
    assertThat(startOf(plan, JobKey.of(2))).isNotNull();
  }

  @Test
  void singleGpuJobsShareANodeWithDistinctGpuIndices() {
    Plan plan = scheduler.cycle(simple(2, 2, List.of(job(1, "--gres=gpu:3"), job(2, "--gres=gpu:2"))), T0);
    GpuGrant a = startOf(plan, JobKey.of(1)).grants().get(0);
    GpuGrant b = startOf(plan, JobKey.of(2)).grants().get(0);
    assertThat(a.node()).isEqualTo(b.node());
    assertThat(a.gpuIndices()).containsExactly(0, 1, 2);
    assertThat(b.gpuIndices()).containsExactly(3, 4);
  }

  @Test
  void gangGoesToOnePlacementGroupWhenOneHasRoomAndSpansFewestOtherwise() {
    // Groups of 4: pg0 = gpu001-004, pg1 = gpu005-008, pg2 = gpu009-012.
    Plan plan = scheduler.cycle(simple(12, 4, List.of(job(1, "-N 3 --gres=gpu:8"), job(2, "-N 6 --gres=gpu:8"))), T0);
    // The 6-node gang ranks first (job size factor) and spans the fewest groups: all of pg0, two of pg1.
    List<String> big = startOf(plan, JobKey.of(2)).grants().stream().map(GpuGrant::node).toList();
    assertThat(big).containsExactly("gpu001", "gpu002", "gpu003", "gpu004", "gpu005", "gpu006");
    // The 3-node gang fits in one group: pg2 (pg1 has only two nodes left).
    List<String> small = startOf(plan, JobKey.of(1)).grants().stream().map(GpuGrant::node).toList();
    assertThat(small).containsExactly("gpu009", "gpu010", "gpu011");
  }

  @Test
  void switchesKeepsAGangInOneGroupUntilItsWaitRunsOut() {
    Job gang = job(1, "-N 5 --gres=gpu:8 --switches=1@10");
    ClusterSnapshot s = simple(8, 4, List.of(gang));
    assertThat(scheduler.cycle(s, T0).starts()).isEmpty();
    assertThat(scheduler.cycle(s, T0.plus(Duration.ofMinutes(11))).starts()).hasSize(1);
  }

  @Test
  void aSwitchesReservationWaitsForOneGroupAndBackfillKeepsOffIt() {
    // pg0 = gpu001-004 (gpu001 busy for 30 minutes), pg1 = gpu005-008 (gpu005-006 busy for an hour).
    Job a = running(10, "--gres=gpu:8 -t 30", T0, wholeNodes("gpu001"));
    Job b = running(11, "-N 2 --gres=gpu:8 -t 60", T0, wholeNodes("gpu005", "gpu006"));
    Job gang = job(1, "-N 4 --gres=gpu:8 -t 60 --switches=1@60 --priority=100");
    Job filler = job(2, "--gres=gpu:8 -t 120 --priority=10");
    Plan plan = scheduler.cycle(simple(8, 4, List.of(a, b, gang, filler)), T0);
    // Five nodes are free now, but no group has four of them before gpu001 ends.
    assertThat(waitOf(plan, 1).reason()).isEqualTo(PendingReason.RESOURCES);
    assertThat(waitOf(plan, 1).expectedStart()).isEqualTo(T0.plus(Duration.ofMinutes(30)));
    assertThat(startOf(plan, JobKey.of(2)).grants()).extracting(GpuGrant::node).first()
        .isIn("gpu007", "gpu008");
  }

  @Test
  void arrayTasksStartLazilyWithinTheirThrottle() {
    Plan plan = scheduler.cycle(simple(4, 4, List.of(job(7, "--array=0-9%3 --gres=gpu:1"))), T0);
    assertThat(plan.starts()).extracting(Action.Start::job)
        .containsExactly(JobKey.task(7, 0), JobKey.task(7, 1), JobKey.task(7, 2));
    assertThat(waitOf(plan, 7).reason()).isEqualTo(PendingReason.JOB_ARRAY_TASK_LIMIT);
  }

  @Test
  void dependenciesHoldUntilSatisfiedAndReportWhenTheyNeverCanBe() {
    Job ok = job(1, "-t 5").started(JobKey.of(1), "gpu", List.of(), T0).finished(JobState.COMPLETED, 0, T0);
    Job failed = job(2, "-t 5").started(JobKey.of(2), "gpu", List.of(), T0).finished(JobState.FAILED, 3, T0);
    Job stillPending = job(3, "--hold");
    List<Job> jobs = List.of(ok, failed, stillPending,
        job(10, "--dependency=afterok:1"), job(11, "--dependency=afterok:2"),
        job(12, "--dependency=afternotok:2"), job(13, "--dependency=afterany:3"),
        job(14, "--dependency=afterok:2?afterok:1"), job(15, "--dependency=afterok:999"));
    Plan plan = scheduler.cycle(simple(2, 2, jobs), T0);
    assertThat(startOf(plan, JobKey.of(10))).isNotNull();
    assertThat(waitOf(plan, 11).reason()).isEqualTo(PendingReason.DEPENDENCY_NEVER_SATISFIED);
    assertThat(startOf(plan, JobKey.of(12))).isNotNull();
    assertThat(waitOf(plan, 13).reason()).isEqualTo(PendingReason.DEPENDENCY);
    assertThat(startOf(plan, JobKey.of(14))).isNotNull();
    assertThat(waitOf(plan, 15).reason()).isEqualTo(PendingReason.DEPENDENCY_NEVER_SATISFIED);
    assertThat(waitOf(plan, 3).reason()).isEqualTo(PendingReason.JOB_HELD_USER);
  }

  private static Job task(long id, int task, JobState state) {
    Job started = job(id, "--array=0-3 -t 5").withPendingTasks(List.of())
        .started(JobKey.task(id, task), "gpu", List.of(), T0.minusSeconds(60));
    return state == JobState.RUNNING ? started : started.finished(state, state == JobState.COMPLETED ? 0 : 1, T0);
  }

  @Test
  void aftercorrIsCheckedForEveryArrayTask() {
    // Task 0 of array 1 runs, 1 and 3 completed, 2 failed: only tasks 1 and 3 of array 2 may start.
    List<Job> jobs = List.of(task(1, 0, JobState.RUNNING), task(1, 1, JobState.COMPLETED),
        task(1, 2, JobState.FAILED), task(1, 3, JobState.COMPLETED),
        job(2, "--array=0-3 --gres=gpu:1 --dependency=aftercorr:1"));
    Plan plan = scheduler.cycle(simple(1, 1, jobs), T0);
    assertThat(plan.starts()).extracting(Action.Start::job).containsExactly(JobKey.task(2, 1), JobKey.task(2, 3));
    assertThat(waitOf(plan, 2).reason()).isEqualTo(PendingReason.DEPENDENCY);
  }

  @Test
  void anArrayWhoseCorrespondingTasksAllFailedNeverRuns() {
    List<Job> jobs = List.of(task(1, 0, JobState.FAILED), task(1, 1, JobState.COMPLETED),
        job(2, "--array=0-1 --gres=gpu:1 --dependency=aftercorr:1"),
        job(3, "--array=0 --gres=gpu:1 --dependency=aftercorr:1"));
    Plan plan = scheduler.cycle(simple(1, 1, jobs), T0);
    assertThat(plan.starts()).extracting(Action.Start::job).containsExactly(JobKey.task(2, 1));
    assertThat(waitOf(plan, 2).reason()).isEqualTo(PendingReason.DEPENDENCY_NEVER_SATISFIED);
    assertThat(waitOf(plan, 3).reason()).isEqualTo(PendingReason.DEPENDENCY_NEVER_SATISFIED);
  }

  @Test
  void singletonWaitsForTheEarlierJobOfTheSameNameAndUser() {
    Job first = job(1, "-J train --gres=gpu:1").started(JobKey.of(1), "gpu",
        List.of(new GpuGrant("gpu001", List.of(0), 1, 0)), T0);
    Plan plan = scheduler.cycle(simple(2, 2, List.of(first, job(2, "-J train --dependency=singleton"))), T0);
    assertThat(waitOf(plan, 2).reason()).isEqualTo(PendingReason.DEPENDENCY);
  }

  @Test
  void beginTimeAndPartitionLimitsAreExplained() {
    List<Node> nodes = nodes("gpu", 2, 2);
    Partition limited = Partition.of("gpu", names(nodes)).asDefault().withLimits(60, null, 1);
    Plan plan = scheduler.cycle(snapshot(nodes, List.of(limited), List.of(
        job(1, "--begin=now+1hour"), job(2, "-t 90"), job(3, "-N 2 -t 10"), job(4, "-p nosuch"))), T0);
    assertThat(waitOf(plan, 1).reason()).isEqualTo(PendingReason.BEGIN_TIME);
    assertThat(waitOf(plan, 2).reason()).isEqualTo(PendingReason.PARTITION_TIME_LIMIT);
    assertThat(waitOf(plan, 3).reason()).isEqualTo(PendingReason.PARTITION_NODE_LIMIT);
    assertThat(waitOf(plan, 4).reason()).isEqualTo(PendingReason.PARTITION_CONFIG);
  }

  /**
   * A restart backoff holds a requeued job back like a --begin, but its age (its priority) still
   * counts from its submission: once the backoff is over it goes before a younger job.
   */
  @Test
  void aRestartBackoffDelaysARequeuedJobWithoutSettingBackItsAge() {
    Job interrupted = job(1, "--gres=gpu:8", T0.minusSeconds(3 * 3600)).notBefore(T0.minusSeconds(3600));
    Job younger = job(2, "--gres=gpu:8", T0.minusSeconds(2 * 3600));
    Plan plan = scheduler.cycle(simple(1, 1, List.of(interrupted, younger)), T0);
    assertThat(plan.starts()).extracting(Action.Start::job).containsExactly(JobKey.of(1));

    Job backingOff = job(3, "--gres=gpu:8", T0.minusSeconds(3 * 3600)).notBefore(T0.plusSeconds(60));
    assertThat(waitOf(scheduler.cycle(simple(1, 1, List.of(backingOff)), T0), 3).reason())
        .isEqualTo(PendingReason.BEGIN_TIME);
  }

  /**
   * A requeued job (its machine was taken, it was preempted) had started once and may resume from
   * a checkpoint: it goes before fresh work of its tier, whatever their priorities, but not before
   * a higher tier.
   */
  @Test
  void aRequeuedJobResumesBeforeFreshWorkOfItsTierButNotBeforeAHigherTier() {
    Job requeued = running(1, "--gres=gpu:8 --priority=10", T0.minusSeconds(600), wholeNodes("gpu001")).requeued();
    Job fresh = job(2, "--gres=gpu:8 --priority=1000", T0.minusSeconds(3600));
    Plan plan = scheduler.cycle(simple(1, 1, List.of(requeued, fresh)), T0);
    assertThat(plan.starts()).extracting(Action.Start::job).containsExactly(JobKey.of(1));

    List<Node> nodes = nodes("gpu", 1, 1);
    Partition low = Partition.of("spot", names(nodes)).withPriority(1, 1, PreemptMode.OFF, 0);
    Partition high = Partition.of("gpu", names(nodes)).asDefault().withPriority(1, 2, PreemptMode.OFF, 0);
    Job requeuedLow = running(3, "-p spot --gres=gpu:8", T0.minusSeconds(600), wholeNodes("gpu001")).requeued();
    Job freshHigh = job(4, "--gres=gpu:8", T0);
    plan = scheduler.cycle(snapshot(nodes, List.of(low, high), List.of(requeuedLow, freshHigh)), T0);
    assertThat(plan.starts()).extracting(Action.Start::job).containsExactly(JobKey.of(4));
  }

  @Test
  void partitionsRefuseAccountsAndQosTheyDoNotAllow() {
    List<Node> nodes = nodes("gpu", 1, 1);
    Partition onlyResearch = Partition.of("gpu", names(nodes)).asDefault().withAllowed(Set.of("research"), Set.of());
    Partition onlyHigh = Partition.of("gpu", names(nodes)).asDefault().withAllowed(Set.of(), Set.of("high"));
    assertThat(waitOf(scheduler.cycle(snapshot(nodes, List.of(onlyResearch), List.of(job(1, ""))), T0), 1).reason())
        .isEqualTo(PendingReason.INVALID_ACCOUNT);
    assertThat(waitOf(scheduler.cycle(snapshot(nodes, List.of(onlyHigh), List.of(job(1, ""))), T0), 1).reason())
        .isEqualTo(PendingReason.INVALID_QOS);
  }

  @Test
  void runningJobPastItsLimitTimesOut() {
    Job late = running(1, "-t 10 --gres=gpu:1", T0.minus(Duration.ofMinutes(11)),
        List.of(new GpuGrant("gpu001", List.of(0), 1, 0)));
    Plan plan = scheduler.cycle(simple(1, 1, List.of(late)), T0);
    assertThat(plan.of(Action.Timeout.class)).extracting(Action.Timeout::job).containsExactly(JobKey.of(1));
  }

  @Test
  void jobsThatFitNoExistingNodeBecomeCapacityDemand() {
    Plan plan = scheduler.cycle(simple(4, 4, List.of(job(1, "-N 16 --gres=gpu:8"), job(2, "--gres=gpu:16"))), T0);
    assertThat(plan.of(Action.CapacityDemand.class)).extracting(Action.CapacityDemand::job, Action.CapacityDemand::nodes,
        Action.CapacityDemand::gpusPerNode).containsExactly(
            org.assertj.core.groups.Tuple.tuple(JobKey.of(1), 16, 8), org.assertj.core.groups.Tuple.tuple(JobKey.of(2), 1, 16));
    assertThat(waitOf(plan, 1).reason()).isEqualTo(PendingReason.RESOURCES);
  }

  @Test
  void higherTierPartitionPreemptsTheVictimThatLosesLeastWork() {
    List<Node> nodes = nodes("gpu", 2, 2);
    Partition low = Partition.of("spot", names(nodes)).withPriority(1, 1, PreemptMode.REQUEUE, 30);
    Partition high = Partition.of("gpu", names(nodes)).asDefault().withPriority(1, 2, PreemptMode.OFF, 0);
    Job old = job(1, "-p spot --gres=gpu:8").started(JobKey.of(1), "spot", wholeNodes("gpu001"),
        T0.minus(Duration.ofHours(5)));
    Job young = job(2, "-p spot --gres=gpu:8 --no-requeue").started(JobKey.of(2), "spot", wholeNodes("gpu002"),
        T0.minus(Duration.ofMinutes(10)));
    Plan plan = scheduler.cycle(snapshot(nodes, List.of(low, high), List.of(old, young, job(3, "-p gpu --gres=gpu:8"))), T0);
    assertThat(plan.of(Action.Preempt.class)).containsExactly(
        new Action.Preempt(JobKey.of(2), JobKey.of(3), PreemptMode.CANCEL, "TERM", 30));
  }

  @Test
  void qosPreemptListLetsUrgentWorkPreemptScavengerWork() {
    List<Node> nodes = nodes("gpu", 1, 1);
    ClusterSnapshot base = snapshot(nodes, List.of(Partition.of("gpu", names(nodes)).asDefault()), List.of());
    Map<String, Qos> qos = Map.of("normal", Qos.normal(),
        "urgent", new Qos("urgent", 100, Set.of("scavenger"), PreemptMode.REQUEUE, null, null),
        "scavenger", new Qos("scavenger", 0, Set.of(), PreemptMode.REQUEUE, null, null));
    Job scav = new Job(JobKey.of(1), 1, Fixtures.request("--gres=gpu:8 --signal=USR1@60"), "bob", "research", "scavenger",
        T0, JobState.PENDING, null, List.of(), List.of(), null, null, null, null, 0, null, null)
        .started(JobKey.of(1), "gpu", wholeNodes("gpu001"), T0.minusSeconds(600));
    Job urgent = new Job(JobKey.of(2), 2, Fixtures.request("--gres=gpu:8"), "alice", "ml", "urgent", T0, JobState.PENDING,
        null, List.of(), List.of(), null, null, null, null, 0, null, null);
    ClusterSnapshot s = new ClusterSnapshot(base.nodes(), base.partitions(), qos, base.accounts(), base.users(),
        List.of(scav, urgent), base.usage());
    assertThat(scheduler.cycle(s, T0).of(Action.Preempt.class)).containsExactly(
        new Action.Preempt(JobKey.of(1), JobKey.of(2), PreemptMode.REQUEUE, "USR1", 0));
  }

  /** alice in ml has used {@code gpuSeconds} of GPUs, billed one unit each, at the ledger's instant. */
  private static UsageLedger used(UsageLedger ledger, double gpuSeconds) {
    return ledger.plus(List.of(new UsageLedger.Use("ml", "alice", "normal", gpuSeconds, gpuSeconds)), ledger.asOf());
  }

  private static Job withQos(long id, String qos, String options) {
    return new Job(JobKey.of(id), id, Fixtures.request(options), "alice", "ml", qos, T0, JobState.PENDING, null,
        List.of(), List.of(), null, null, null, null, 0, null, null);
  }

  private static ClusterSnapshot withQosLevels(ClusterSnapshot base, List<Job> jobs) {
    Map<String, Qos> qos = Map.of("normal", Qos.normal(),
        "high", new Qos("high", 0, Set.of("low"), PreemptMode.REQUEUE, null, null),
        "low", new Qos("low", 0, Set.of(), PreemptMode.REQUEUE, null, null));
    return new ClusterSnapshot(base.nodes(), base.partitions(), qos, base.accounts(), base.users(), jobs, base.usage());
  }

  @Test
  void aJobStartedThisCycleIsNeverPreemptedInIt() {
    Job low = withQos(1, "low", "--gres=gpu:4").started(JobKey.of(1), "gpu",
        List.of(new GpuGrant("gpu001", List.of(0, 1, 2, 3), 1, 0)), T0.minusSeconds(600));
    Job lowPending = withQos(2, "low", "--gres=gpu:2 --priority=1000");
    Job high = withQos(3, "high", "--gres=gpu:4 --priority=10");
    Plan plan = scheduler.cycle(withQosLevels(simple(1, 1, List.of()), List.of(low, lowPending, high)), T0);
    assertThat(startOf(plan, JobKey.of(2))).isNotNull();
    // Stopping job 1 frees 4 GPUs, with the 2 still free enough for job 3; job 2 just started.
    assertThat(plan.of(Action.Preempt.class)).containsExactly(
        new Action.Preempt(JobKey.of(1), JobKey.of(3), PreemptMode.REQUEUE, "TERM", 0));
  }

  @Test
  void aVictimThatFreesNothingTheGangLacksIsSpared() {
    // Node: 8 GPUs, 96 CPUs, 1,000,000 MB. Job 1 holds 2 GPUs and a CPU; job 2 a CPU and 900,000 MB.
    // Job 3 lacks only memory, so only job 2 helps, although job 1 lost less work.
    Job gpuHolder = withQos(1, "low", "--gres=gpu:2").started(JobKey.of(1), "gpu",
        List.of(new GpuGrant("gpu001", List.of(0, 1), 1, 0)), T0.minusSeconds(60));
    Job memHolder = withQos(2, "low", "--mem=900000").started(JobKey.of(2), "gpu",
        List.of(new GpuGrant("gpu001", List.of(), 1, 900_000)), T0.minusSeconds(6000));
    Job high = withQos(3, "high", "--gres=gpu:4 --mem=500000");
    Plan plan = scheduler.cycle(withQosLevels(simple(1, 1, List.of()), List.of(gpuHolder, memHolder, high)), T0);
    assertThat(plan.of(Action.Preempt.class)).containsExactly(
        new Action.Preempt(JobKey.of(2), JobKey.of(3), PreemptMode.REQUEUE, "TERM", 0));
  }

  @Test
  void preemptedGangRequeuesAndThePreemptorStartsNextCycle() {
    List<Node> nodes = nodes("gpu", 2, 2);
    Partition low = Partition.of("spot", names(nodes)).withPriority(1, 1, PreemptMode.REQUEUE, 0);
    Partition high = Partition.of("gpu", names(nodes)).asDefault().withPriority(1, 2, PreemptMode.OFF, 0);
    Job victim = job(1, "-p spot -N 2 --gres=gpu:8").started(JobKey.of(1), "spot", wholeNodes("gpu001", "gpu002"),
        T0.minusSeconds(60));
    Harness h = new Harness(SchedulerConfig.defaults(),
        snapshot(nodes, List.of(low, high), List.of(victim, job(2, "-p gpu -N 2 --gres=gpu:8"))), T0);
    h.cycle();
    h.advance(Duration.ofSeconds(30));
    Plan second = h.cycle();
    assertThat(startOf(second, JobKey.of(2))).isNotNull();
    assertThat(h.job(JobKey.of(1)).state()).isEqualTo(JobState.PENDING);
    assertThat(h.job(JobKey.of(1)).restartCount()).isEqualTo(1);
  }

  @Test
  void qosGpuLimitHoldsJobsBack() {
    ClusterSnapshot base = simple(2, 2, List.of(job(1, "--gres=gpu:8"), job(2, "--gres=gpu:8")));
    Map<String, Qos> qos = Map.of("normal", new Qos("normal", 0, Set.of(), PreemptMode.REQUEUE, 8, null));
    ClusterSnapshot s = new ClusterSnapshot(base.nodes(), base.partitions(), qos, base.accounts(), base.users(),
        base.jobs(), base.usage());
    Plan plan = scheduler.cycle(s, T0);
    assertThat(plan.starts()).hasSize(1);
    assertThat(waitOf(plan, 2).reason()).isEqualTo(PendingReason.QOS_GRP_GRES);
  }

  @Test
  void fairShareFavoursTheAccountThatUsedLess() {
    Job heavy = Fixtures.jobOf(1, "alice", "ml", "--gres=gpu:8");
    Job light = Fixtures.jobOf(2, "bob", "research", "--gres=gpu:8");
    ClusterSnapshot s = simple(1, 1, List.of(heavy, light))
        .withUsage(used(UsageLedger.empty(T0, Duration.ofDays(7)), 1e6));
    Plan plan = scheduler.cycle(s, T0);
    assertThat(plan.starts()).extracting(Action.Start::job).containsExactly(JobKey.of(2));
  }

  @Test
  void constraintsAndNodeListsSelectNodes() {
    List<Node> nodes = new ArrayList<>(nodes("gpu", 4, 4));
    nodes.set(3, new Node("gpu004", 8, "h100", 96, 1_000_000, Set.of("h100", "ib"), "gpu-pg0",
        io.squall.core.model.NodeState.IDLE));
    ClusterSnapshot s = snapshot(nodes, List.of(Partition.of("gpu", names(nodes)).asDefault()),
        List.of(job(1, "--constraint=ib --gres=gpu:8"), job(2, "-w gpu002 --gres=gpu:8"), job(3, "-x gpu001,gpu003 --gres=gpu:1")));
    Plan plan = scheduler.cycle(s, T0);
    assertThat(startOf(plan, JobKey.of(1)).grants().get(0).node()).isEqualTo("gpu004");
    assertThat(startOf(plan, JobKey.of(2)).grants().get(0).node()).isEqualTo("gpu002");
    assertThat(waitOf(plan, 3).reason()).isEqualTo(PendingReason.RESOURCES);
  }

  @Test
  void aNodeListSetsTheNodeCountAndItsNodesMustBeEligible() {
    // gpu001-003: h100 without ib; gpu004: ib; gpu005: an a100 node with ib.
    List<Node> nodes = new ArrayList<>(nodes("gpu", 4, 5));
    nodes.set(3, new Node("gpu004", 8, "h100", 96, 1_000_000, Set.of("h100", "ib"), "gpu-pg0",
        io.squall.core.model.NodeState.IDLE));
    nodes.add(new Node("gpu005", 8, "a100", 96, 1_000_000, Set.of("a100", "ib"), "gpu-pg0",
        io.squall.core.model.NodeState.IDLE));
    ClusterSnapshot s = snapshot(nodes, List.of(Partition.of("gpu", names(nodes)).asDefault()), List.of(
        job(1, "-w gpu001,gpu002 --gres=gpu:8"),
        job(2, "-w gpu003 --constraint=ib --gres=gpu:1"),
        job(3, "-w gpu004 --gres=gpu:a100:1"),
        job(4, "-w gpu004,gpu005 --constraint=[h100|a100] --gres=gpu:1"),
        job(5, "-w gpu005 -N 2 --constraint=ib --gres=gpu:1")));
    Plan plan = scheduler.cycle(s, T0);
    assertThat(startOf(plan, JobKey.of(1)).grants()).extracting(GpuGrant::node).containsExactly("gpu001", "gpu002");
    assertThat(waitOf(plan, 2).reason()).isEqualTo(PendingReason.REQ_NODE_NOT_AVAIL);
    assertThat(waitOf(plan, 3).reason()).isEqualTo(PendingReason.REQ_NODE_NOT_AVAIL);
    assertThat(waitOf(plan, 4).reason()).isEqualTo(PendingReason.REQ_NODE_NOT_AVAIL);
    assertThat(startOf(plan, JobKey.of(5)).grants()).extracting(GpuGrant::node).containsExactly("gpu005", "gpu004");
  }

  @Test
  void jobsWithoutAccountOrQosAreScheduledAndKeptOutOfRestrictedPartitions() {
    List<Node> nodes = nodes("gpu", 2, 2);
    Partition open = Partition.of("gpu", names(nodes.subList(0, 1))).asDefault();
    Partition restricted = Partition.of("vip", names(nodes.subList(1, 2))).withAllowed(Set.of("ml"), Set.of("normal"));
    Job runningBare = new Job(JobKey.of(1), 1, Fixtures.request("--gres=gpu:1"), "bob", null, null, T0,
        JobState.PENDING, null, List.of(), List.of(), null, null, null, null, 0, null, null)
        .started(JobKey.of(1), "gpu", List.of(new GpuGrant("gpu001", List.of(0), 1, 0)), T0.minusSeconds(60));
    Job noQos = new Job(JobKey.of(2), 2, Fixtures.request("--gres=gpu:1"), "alice", "ml", null, T0, JobState.PENDING,
        null, List.of(), List.of(), null, null, null, null, 0, null, null);
    Job noAccount = new Job(JobKey.of(3), 3, Fixtures.request("-p vip --gres=gpu:1"), "alice", null, "normal", T0,
        JobState.PENDING, null, List.of(), List.of(), null, null, null, null, 0, null, null);
    Job noQosVip = new Job(JobKey.of(4), 4, Fixtures.request("-p vip --gres=gpu:1"), "alice", "ml", null, T0,
        JobState.PENDING, null, List.of(), List.of(), null, null, null, null, 0, null, null);
    Plan plan = scheduler.cycle(snapshot(nodes, List.of(open, restricted), List.of(runningBare, noQos, noAccount,
        noQosVip)), T0);
    assertThat(startOf(plan, JobKey.of(2))).isNotNull();
    assertThat(waitOf(plan, 3).reason()).isEqualTo(PendingReason.INVALID_ACCOUNT);
    assertThat(waitOf(plan, 4).reason()).isEqualTo(PendingReason.INVALID_QOS);
  }

  @Test
  void aJobForSeveralPartitionsReservesInTheOneThatFreesFirst() {
    List<Node> nodes = nodes("gpu", 2, 2);
    Partition a = Partition.of("a", List.of("gpu001")).asDefault();
    Partition b = Partition.of("b", List.of("gpu002"));
    Job longRun = job(10, "-p a --gres=gpu:8 -t 120").started(JobKey.of(10), "a", wholeNodes("gpu001"), T0);
    Job shortRun = job(11, "-p b --gres=gpu:8 -t 30").started(JobKey.of(11), "b", wholeNodes("gpu002"), T0);
    Plan plan = scheduler.cycle(snapshot(nodes, List.of(a, b), List.of(longRun, shortRun,
        job(1, "-p a,b --gres=gpu:8 -t 60"))), T0);
    assertThat(waitOf(plan, 1).reason()).isEqualTo(PendingReason.RESOURCES);
    assertThat(waitOf(plan, 1).expectedStart()).isEqualTo(T0.plus(Duration.ofMinutes(30)));
  }

  @Test
  void aQosLimitInOnePartitionExplainsMoreThanBusyNodesInAnother() {
    List<Node> nodes = nodes("gpu", 2, 2);
    Partition a = Partition.of("a", List.of("gpu001")).asDefault().withLimits(null, 10, null);
    Partition b = Partition.of("b", List.of("gpu002")).withLimits(null, 600, null);
    Job busy = job(10, "-p a --gres=gpu:8 -t 5").started(JobKey.of(10), "a", wholeNodes("gpu001"), T0);
    ClusterSnapshot base = snapshot(nodes, List.of(a, b), List.of(busy, job(1, "-p a,b --gres=gpu:8")));
    // With the 40 GPU-minutes job 10 still has: 8 GPUs for 10 minutes in a fit the QOS, for 600 in b not.
    Map<String, Qos> qos = Map.of("normal", new Qos("normal", 0, Set.of(), PreemptMode.REQUEUE, null, 1000L));
    ClusterSnapshot s = new ClusterSnapshot(base.nodes(), base.partitions(), qos, base.accounts(), base.users(),
        base.jobs(), base.usage());
    assertThat(waitOf(scheduler.cycle(s, T0), 1).reason()).isEqualTo(PendingReason.QOS_GRP_GRES_MINUTES);
  }

  /**
   * GrpTRESMins usage decays with the half-life, as Slurm decays a QOS's usage: 1,000 GPU-minutes
   * used a week ago (one half-life) count as 500, so a 480 GPU-minute job fits a 1,000 limit.
   */
  @Test
  void qosGpuMinutesUsageDecaysWithTheHalfLife() {
    ClusterSnapshot base = simple(1, 1, List.of(job(1, "--gres=gpu:8 -t 60")));
    Map<String, Qos> qos = Map.of("normal", new Qos("normal", 0, Set.of(), PreemptMode.REQUEUE, null, 1000L));
    UsageLedger weekOld = used(UsageLedger.empty(T0.minus(Duration.ofDays(7)), Duration.ofDays(7)), 1000 * 60.0);
    ClusterSnapshot s = new ClusterSnapshot(base.nodes(), base.partitions(), qos, base.accounts(), base.users(),
        base.jobs(), weekOld);
    assertThat(scheduler.cycle(s, T0).starts()).hasSize(1);
    // Used just now, the same usage leaves no room.
    ClusterSnapshot fresh = new ClusterSnapshot(base.nodes(), base.partitions(), qos, base.accounts(), base.users(),
        base.jobs(), used(UsageLedger.empty(T0, Duration.ofDays(7)), 1000 * 60.0));
    assertThat(waitOf(scheduler.cycle(fresh, T0), 1).reason()).isEqualTo(PendingReason.QOS_GRP_GRES_MINUTES);
  }

  /** --signal=B:USR1@120 with a 10 min limit: planned from 8 min after the start, not before. */
  @Test
  void aJobIsSignalledItsSignalTimeBeforeItsTimeLimit() {
    Job running = running(1, "--gres=gpu:8 -t 10 --signal=B:USR1@120", T0, wholeNodes("gpu001"));
    ClusterSnapshot s = simple(1, 1, List.of(running));
    assertThat(scheduler.cycle(s, T0.plus(Duration.ofMinutes(8)).minusSeconds(1)).actions())
        .noneMatch(a -> a instanceof Action.LimitSignal);
    assertThat(scheduler.cycle(s, T0.plus(Duration.ofMinutes(8))).actions())
        .contains(new Action.LimitSignal(JobKey.of(1), "USR1", true, 120));
    // Without @, 60 s before; at the limit itself, the job times out instead.
    Job plain = running(2, "--gres=gpu:8 -t 10 --signal=USR2", T0, wholeNodes("gpu001"));
    assertThat(scheduler.cycle(simple(1, 1, List.of(plain)), T0.plus(Duration.ofMinutes(9))).actions())
        .contains(new Action.LimitSignal(JobKey.of(2), "USR2", false, 60));
    assertThat(scheduler.cycle(simple(1, 1, List.of(plain)), T0.plus(Duration.ofMinutes(10))).actions())
        .contains(new Action.Timeout(JobKey.of(2))).noneMatch(a -> a instanceof Action.LimitSignal);
  }

  @Test
  void theSameSnapshotGivesTheSamePlanWhateverTheListOrder() {
    List<Job> jobs = new ArrayList<>();
    for (long id = 1; id <= 40; id++) {
      jobs.add(job(id, "-N " + (1 + id % 3) + " --gres=gpu:" + (1 + id % 8) + " -t " + (10 + id)));
    }
    Plan a = scheduler.cycle(simple(6, 3, jobs), T0);
    Collections.shuffle(jobs, new java.util.Random(42));
    Plan b = scheduler.cycle(simple(6, 3, jobs), T0);
    assertThat(b.actions().stream().filter(x -> !(x instanceof Action.Wait)).toList())
        .isEqualTo(a.actions().stream().filter(x -> !(x instanceof Action.Wait)).toList());
    assertThat(Set.copyOf(b.waits())).isEqualTo(Set.copyOf(a.waits()));
  }

  @Test
  void aGangNeverRunsAcrossZones() {
    // One placement group, its machines in two zones (a replacement went elsewhere), two powered down.
    List<Node> base = nodes("gpu", 6, 6);
    List<Node> nodes = List.of(base.get(0).withMachine("az1", null), base.get(1).withMachine("az1", null), base.get(2).withMachine("az2", null),
        base.get(3).withMachine("az2", null), base.get(4).withState(io.squall.core.model.NodeState.CLOUD),
        base.get(5).withState(io.squall.core.model.NodeState.CLOUD));
    List<Partition> gpu = List.of(Partition.of("gpu", names(nodes)).asDefault());
    Plan two = scheduler.cycle(snapshot(nodes, gpu, List.of(job(1, "-N 2 --gres=gpu:8"))), T0);
    assertThat(two.of(Action.Start.class)).singleElement().satisfies(st -> assertThat(st.grants())
        .extracting(GpuGrant::node).containsExactlyInAnyOrder("gpu001", "gpu002"));
    // Four nodes: two up in one zone and the two powered down (launched in that zone), never az1 with az2.
    Plan four = scheduler.cycle(snapshot(nodes, gpu, List.of(job(2, "-N 4 --gres=gpu:8"))), T0);
    assertThat(four.of(Action.Start.class)).singleElement().satisfies(st -> assertThat(st.grants())
        .extracting(GpuGrant::node).doesNotContain("gpu003", "gpu004").contains("gpu005", "gpu006"));
    // Three fit only in az2: found there, though az1's node comes first.
    List<Node> oneAndThree = List.of(base.get(0).withMachine("az1", null), base.get(1).withMachine("az2", null),
        base.get(2).withMachine("az2", null), base.get(3).withMachine("az2", null));
    Plan three = scheduler.cycle(snapshot(oneAndThree, List.of(Partition.of("gpu", names(oneAndThree)).asDefault()),
        List.of(job(4, "-N 3 --gres=gpu:8"))), T0);
    assertThat(three.of(Action.Start.class)).singleElement().satisfies(st -> assertThat(st.grants())
        .extracting(GpuGrant::node).containsExactlyInAnyOrder("gpu002", "gpu003", "gpu004"));
    // Five cannot be had without mixing zones: it waits.
    Plan five = scheduler.cycle(snapshot(nodes, gpu, List.of(job(3, "-N 5 --gres=gpu:8"))), T0);
    assertThat(five.of(Action.Start.class)).isEmpty();
  }
}
