package io.squall.api.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.Job;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.model.Partition;
import io.squall.core.model.UsageLedger;
import io.squall.core.money.BudgetLimits;
import io.squall.core.sbatch.SbatchParser;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** When a periodic cycle may be skipped: the same snapshot, before any time trigger, within the full pass. */
class LastCycleTest {
  private static final Instant T0 = Instant.parse("2026-11-27T01:00:00Z");
  private static final SbatchParser PARSER = new SbatchParser(ZoneOffset.UTC);
  private static final UsageLedger USAGE = UsageLedger.empty(T0, Duration.ofDays(7));
  private static final List<Node> NODES = List.of(new Node("n1", 8, "h100", 32, 262144, Set.of(), "pg0",
      NodeState.IDLE));

  private static Job job(long id) {
    return Job.pending(id, PARSER.parse("#!/bin/bash\nsrun hostname\n", "job.sh", List.of("--gres=gpu:8"), T0)
        .request(), "alice", "ml", "normal", T0);
  }

  private static ClusterSnapshot snapshot(List<Node> nodes, List<Job> jobs) {
    return new ClusterSnapshot(nodes, List.of(Partition.of("gpu", List.of("n1")).asDefault()), Map.of(), List.of(),
        List.of(), jobs, USAGE);
  }

  @Test
  void theSameJobsAndNodesBeforeAnyTriggerAreCovered() {
    List<Job> jobs = List.of(job(1), job(2));
    LastCycle last = new LastCycle(snapshot(NODES, jobs), T0, T0.plusSeconds(20));
    // A new snapshot of the same state: other lists, the same values.
    assertThat(last.covers(snapshot(new ArrayList<>(NODES), new ArrayList<>(jobs)), T0.plusSeconds(19))).isTrue();
    assertThat(last.covers(snapshot(NODES, jobs), T0.plusSeconds(20))).as("at the trigger").isFalse();
    assertThat(new LastCycle(snapshot(NODES, jobs), T0, null).covers(snapshot(NODES, jobs),
        T0.plus(LastCycle.FULL_PASS))).as("a full pass is due").isFalse();
    assertThat(LastCycle.NONE.covers(snapshot(NODES, jobs), T0)).isFalse();
  }

  @Test
  void anyChangedJobNodeUsageOrBudgetIsNot() {
    List<Job> jobs = List.of(job(1), job(2));
    LastCycle last = new LastCycle(snapshot(NODES, jobs), T0, null);
    Instant now = T0.plusSeconds(1);
    assertThat(last.covers(snapshot(NODES, List.of(job(1), job(2))), now)).as("a job replaced").isFalse();
    assertThat(last.covers(snapshot(NODES, List.of(jobs.get(0))), now)).as("a job gone").isFalse();
    Node drained = NODES.get(0).withState(NodeState.DRAINING);
    assertThat(last.covers(snapshot(List.of(drained), jobs), now)).as("a node changed").isFalse();
    assertThat(last.covers(snapshot(NODES, jobs).withUsage(UsageLedger.empty(T0, Duration.ofDays(7))), now))
        .as("usage charged").isFalse();
    assertThat(last.covers(snapshot(NODES, jobs).withBudgets(new BudgetLimits(Map.of("ml", 10.0), Map.of(), Set.of(),
        Map.of())), now)).as("a budget spent").isFalse();
  }
}
