package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.job;
import static io.squall.core.schedule.Fixtures.names;
import static io.squall.core.schedule.Fixtures.nodes;
import static io.squall.core.schedule.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.model.Partition;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Powered-down (CLOUD) and powering-up nodes: allocated like free ones, but only when up ones cannot hold the gang. */
class ElasticSchedulingTest {
  private final Scheduler scheduler = new Scheduler(SchedulerConfig.defaults());

  private static List<Node> withStates(List<Node> nodes, NodeState... states) {
    List<Node> out = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      out.add(nodes.get(i).withState(states[i]));
    }
    return out;
  }

  @Test
  void aGangOnAnEmptyElasticPartitionIsAllocatedPoweredDownNodesInOneGroup() {
    List<Node> nodes = withStates(nodes("gpu", 8, 4), NodeState.CLOUD, NodeState.CLOUD, NodeState.CLOUD,
        NodeState.CLOUD, NodeState.CLOUD, NodeState.CLOUD, NodeState.CLOUD, NodeState.CLOUD);
    ClusterSnapshot s = snapshot(nodes, List.of(Partition.of("gpu", names(nodes)).asDefault()),
        List.of(job(1, "-N 4 --gres=gpu:8")));
    Plan plan = scheduler.cycle(s, T0);
    assertThat(plan.starts()).hasSize(1);
    assertThat(plan.starts().get(0).grants()).extracting(GpuGrant::node)
        .containsExactly("gpu001", "gpu002", "gpu003", "gpu004");
  }

  @Test
  void upNodesAreUsedBeforeAnyIsPoweredUp() {
    List<Node> nodes = withStates(nodes("gpu", 4, 4), NodeState.CLOUD, NodeState.CLOUD, NodeState.IDLE,
        NodeState.CLOUD);
    ClusterSnapshot s = snapshot(nodes, List.of(Partition.of("gpu", names(nodes)).asDefault()),
        List.of(job(1, "--gres=gpu:8"), job(2, "--gres=gpu:8")));
    Plan plan = scheduler.cycle(s, T0);
    assertThat(plan.starts()).extracting(st -> st.grants().get(0).node()).containsExactly("gpu003", "gpu001");
  }

  @Test
  void downAndDrainingNodesAreNeverAllocated() {
    List<Node> nodes = withStates(nodes("gpu", 2, 2), NodeState.DOWN, NodeState.POWERING_DOWN);
    ClusterSnapshot s = snapshot(nodes, List.of(Partition.of("gpu", names(nodes)).asDefault()),
        List.of(job(1, "--gres=gpu:8")));
    Plan plan = scheduler.cycle(s, T0);
    assertThat(plan.starts()).isEmpty();
  }
}
