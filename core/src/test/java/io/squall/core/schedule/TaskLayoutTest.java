package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.job;
import static io.squall.core.schedule.Fixtures.simple;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.JobKey;
import io.squall.core.model.PreemptMode;
import io.squall.core.model.Qos;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How a job's tasks and GPUs are laid out over nodes, as Slurm lays them out (8-GPU nodes of 96 CPUs). */
class TaskLayoutTest {
  private final Scheduler scheduler = new Scheduler(SchedulerConfig.defaults());

  private List<GpuGrant> grantsOf(ClusterSnapshot s, long id) {
    Plan plan = scheduler.cycle(s, T0);
    return plan.starts().stream().filter(x -> x.job().equals(JobKey.of(id))).findFirst()
        .map(Action.Start::grants).orElse(null);
  }

  /** Without -N, tasks spread over as many nodes as their GPUs need: no 16-GPU node is waited for. */
  @Test
  void tasksWithoutNodesSpreadOverAsManyNodesAsTheyNeed() {
    List<GpuGrant> grants = grantsOf(simple(4, 4, List.of(job(1, "-n 16 --gpus-per-task=1"))), 1);
    assertThat(grants).isNotNull().hasSize(2);
    assertThat(grants).allSatisfy(g -> assertThat(g.gpuIndices()).hasSize(8));
    // 12 tasks of one GPU: two nodes of 6 (the gang's nodes are alike).
    List<GpuGrant> twelve = grantsOf(simple(4, 4, List.of(job(2, "-n 12 --gpus-per-task=1"))), 2);
    assertThat(twelve).hasSize(2).allSatisfy(g -> assertThat(g.gpuIndices()).hasSize(6));
    // Tasks that fit one node stay on one.
    assertThat(grantsOf(simple(4, 4, List.of(job(3, "-n 4 --gpus-per-task=2"))), 3)).hasSize(1);
  }

  /** --gpus is the whole gang's: -N 3 --gpus=8 holds exactly 8 GPUs (3, 3 and 2), not 9. */
  @Test
  void gpusForTheWholeJobAreHeldExactly() {
    List<GpuGrant> grants = grantsOf(simple(4, 4, List.of(job(1, "-N 3 --gpus=8"))), 1);
    assertThat(grants).hasSize(3);
    assertThat(grants.stream().mapToInt(g -> g.gpuIndices().size()).sum()).isEqualTo(8);
    assertThat(grants).extracting(g -> g.gpuIndices().size()).containsExactly(3, 3, 2);
  }

  /** -N min-max starts on as many nodes as are free then, up to its maximum; it waits for its minimum. */
  @Test
  void aNodeRangeTakesAsManyFreeNodesAsItMayWhenItStarts() {
    assertThat(grantsOf(simple(6, 6, List.of(job(1, "-N 2-4 --gres=gpu:8"))), 1)).hasSize(4);
    // One node of four busy: three.
    Plan plan = scheduler.cycle(simple(4, 4, List.of(runningOn(1, "gpu001"), job(2, "-N 2-4 --gres=gpu:8"))), T0);
    assertThat(plan.starts()).singleElement().satisfies(x -> assertThat(x.grants()).hasSize(3));
    // Three of four busy: fewer than its minimum are free, so it waits.
    Plan full = scheduler.cycle(simple(4, 4, List.of(runningOn(1, "gpu001", "gpu002", "gpu003"),
        job(2, "-N 2-4 --gres=gpu:8"))), T0);
    assertThat(full.starts()).isEmpty();
  }

  /** Job {@code id} running on whole nodes for the next hour. */
  private static io.squall.core.model.Job runningOn(long id, String... nodes) {
    List<GpuGrant> grants = java.util.Arrays.stream(nodes)
        .map(n -> new GpuGrant(n, List.of(0, 1, 2, 3, 4, 5, 6, 7), 1, 0)).toList();
    return job(id, "-N " + nodes.length + " --gres=gpu:8 -t 60", T0.minusSeconds(60))
        .started(JobKey.of(id), "gpu", grants, T0.minusSeconds(30));
  }

  /**
   * An exclusive job holds all of its node's GPUs, CPUs and memory, whatever it asked for, and
   * they count in limits: a QOS of 8 GPUs has no room left beside it.
   */
  @Test
  void anExclusiveJobHoldsItsWholeNodeAndItCountsInLimits() {
    ClusterSnapshot base = simple(2, 2, List.of(job(1, "--exclusive --gres=gpu:1"), job(2, "--gres=gpu:1")));
    Map<String, Qos> qos = Map.of("normal", new Qos("normal", 0, Set.of(), PreemptMode.REQUEUE, 8, null));
    ClusterSnapshot s = new ClusterSnapshot(base.nodes(), base.partitions(), qos, base.accounts(), base.users(),
        base.jobs(), base.usage());
    Plan plan = scheduler.cycle(s, T0);
    GpuGrant whole = plan.starts().stream().filter(x -> x.job().equals(JobKey.of(1))).findFirst().orElseThrow()
        .grants().get(0);
    assertThat(whole.gpuIndices()).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    assertThat(whole.cpus()).isEqualTo(96);
    assertThat(whole.memoryMb()).isEqualTo(1_000_000);
    assertThat(plan.starts()).hasSize(1);
    assertThat(plan.waits()).singleElement().satisfies(w -> assertThat(w.reason()).isEqualTo(
        PendingReason.QOS_GRP_GRES));
  }
}
