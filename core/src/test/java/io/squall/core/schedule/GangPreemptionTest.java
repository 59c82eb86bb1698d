package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.job;
import static io.squall.core.schedule.Fixtures.names;
import static io.squall.core.schedule.Fixtures.nodes;
import static io.squall.core.schedule.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.Node;
import io.squall.core.model.Partition;
import io.squall.core.model.PreemptMode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Preemption for gangs: which victims a multi-node job picks, over several cycles. */
class GangPreemptionTest {
  private static final List<Node> NODES = nodes("gpu", 4, 4);

  /** A lower-tier partition whose jobs are requeued after {@code graceSeconds}, and a higher one. */
  private static List<Partition> tiers(int graceSeconds) {
    return List.of(Partition.of("spot", names(NODES)).withPriority(1, 1, PreemptMode.REQUEUE, graceSeconds),
        Partition.of("gpu", names(NODES)).asDefault().withPriority(1, 2, PreemptMode.OFF, 0));
  }

  /** A spot job that has run on the whole of one node for {@code ran}. */
  private static Job spotJob(long id, String node, Duration ran) {
    return job(id, "-p spot --gres=gpu:8").started(JobKey.of(id), "spot",
        List.of(new GpuGrant(node, List.of(0, 1, 2, 3, 4, 5, 6, 7), 1, 0)), T0.minus(ran));
  }

  private static List<JobKey> victims(Plan plan) {
    return plan.of(Action.Preempt.class).stream().map(Action.Preempt::job).toList();
  }

  @Test
  void aGangWithSomeNodesIdlePreemptsOnlyTheBusyOnesAndStartsWhenTheyAreGone() {
    Job gang = job(3, "-p gpu -N 4 --gres=gpu:8");
    Harness h = new Harness(SchedulerConfig.defaults(), snapshot(NODES, tiers(0), List.of(
        spotJob(1, "gpu001", Duration.ofHours(1)), spotJob(2, "gpu002", Duration.ofHours(2)), gang)), T0);

    assertThat(victims(h.cycle())).containsExactlyInAnyOrder(JobKey.of(1), JobKey.of(2));
    h.advance(Duration.ofSeconds(30));
    h.cycle();

    assertThat(h.job(JobKey.of(3)).allocation()).extracting(GpuGrant::node)
        .containsExactly("gpu001", "gpu002", "gpu003", "gpu004");
  }

  @Test
  void aGangWaitingForItsVictimsGraceTimeCountsTheirNodesAndPreemptsNoOneElse() {
    Job gang = job(5, "-p gpu -N 2 --gres=gpu:8");
    Harness h = new Harness(SchedulerConfig.defaults(), snapshot(NODES, tiers(120), List.of(
        spotJob(1, "gpu001", Duration.ofHours(4)), spotJob(2, "gpu002", Duration.ofHours(3)),
        spotJob(3, "gpu003", Duration.ofHours(2)), spotJob(4, "gpu004", Duration.ofHours(1)), gang)), T0);

    assertThat(victims(h.cycle())).containsExactlyInAnyOrder(JobKey.of(3), JobKey.of(4));
    // Jobs 3 and 4 checkpoint during their 120 s of grace; jobs 1 and 2 could make room as well.
    h.advance(Duration.ofSeconds(10));
    h.runUntil(T0.plusSeconds(110), Duration.ofSeconds(10));
    assertThat(h.plans.stream().skip(1).flatMap(p -> victims(p).stream())).isEmpty();
    h.cycle(); // 120 s: their grace is up, they are requeued

    assertThat(h.job(JobKey.of(5)).allocation()).extracting(GpuGrant::node).containsExactly("gpu003", "gpu004");
    assertThat(h.job(JobKey.of(1)).preemptedAt()).isNull();
    assertThat(h.job(JobKey.of(2)).preemptedAt()).isNull();
  }
}
