package io.squall.api.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who set a node's reason and when (sinfo -R): stamped when the reason is new, kept while it stays. */
class NodeReasonStampTest {
  private static final Instant T0 = Instant.parse("2026-11-28T04:00:00.750Z");
  private static final Instant T1 = Instant.parse("2026-11-28T04:05:00Z");
  private final NodeStatus up = new NodeStatus(
      new Node("node-1", 8, "h100", 32, 1024, Set.of(), null, NodeState.IDLE), null, "http://a", T0, 1L);

  @Test
  void aNewReasonIsTheControllersOrTheOperatorsAtTheBatchsWholeSecond() {
    NodeStatus down = up.withState(NodeState.DOWN, "not responding").stampedAfter(up, T0);
    assertThat(down.reasonUser()).isEqualTo(NodeStatus.CONTROLLER);
    assertThat(down.reasonTime()).isEqualTo(Instant.parse("2026-11-28T04:00:00Z"));
    NodeStatus drained = up.withState(NodeState.DRAINING, "bad disk", "admin").stampedAfter(up, T0);
    assertThat(drained.reasonUser()).isEqualTo("admin");
  }

  @Test
  void theSameReasonKeepsItsStampThroughOtherChangesAndAnotherReasonOrUserGetsANewOne() {
    NodeStatus drained = up.withState(NodeState.DRAINING, "bad disk", "admin").stampedAfter(up, T0);
    // A copy made for another change (the fleet's, a version) carries the reason without its stamp.
    NodeStatus copy = new NodeStatus(drained.node(), drained.reason(), drained.address(), T1, 2L);
    assertThat(copy.stampedAfter(drained, T1)).extracting(NodeStatus::reasonUser, NodeStatus::reasonTime)
        .containsExactly("admin", drained.reasonTime());
    assertThat(drained.withState(NodeState.DRAINING, "bad disk", "admin").stampedAfter(drained, T1).reasonTime())
        .as("drained again for the same reason").isEqualTo(drained.reasonTime());
    assertThat(drained.withState(NodeState.DRAINING, "bad disk", "bob").stampedAfter(drained, T1))
        .extracting(NodeStatus::reasonUser, NodeStatus::reasonTime).containsExactly("bob", T1);
    assertThat(drained.withState(NodeState.DOWN, "not responding").stampedAfter(drained, T1))
        .extracting(NodeStatus::reasonUser, NodeStatus::reasonTime).containsExactly(NodeStatus.CONTROLLER, T1);
  }

  @Test
  void noReasonHasNoOneWhoSetItNorWhen() {
    NodeStatus drained = up.withState(NodeState.DRAINING, "bad disk", "admin").stampedAfter(up, T0);
    NodeStatus resumed = drained.withState(NodeState.IDLE, null).stampedAfter(drained, T1);
    assertThat(resumed.reasonUser()).isNull();
    assertThat(resumed.reasonTime()).isNull();
  }
}
