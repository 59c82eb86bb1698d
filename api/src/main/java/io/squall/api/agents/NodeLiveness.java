package io.squall.api.agents;

import io.squall.api.state.NodeStatus;
import io.squall.core.model.NodeState;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each node's agent was last heard, noted as its heartbeat arrives rather than when the
 * single writer gets to it: during a burst of submissions or a large plan the writer's queue can
 * be longer than the node timeout, and a node judged by the writer's view of its heartbeats would
 * go DOWN while its agent reports every few seconds (issue 18: 9,446 of 10,000 nodes lost while
 * 100,000 jobs were submitted). Memory only, as {@link NodeStatus#lastHeartbeat()} is.
 *
 * <p>A stamp counts only for the agent that made it: a node whose agent was superseded (another
 * address registered) or that went DOWN is judged by what the writer committed, so fencing stays
 * with the writer.
 */
@Singleton
public final class NodeLiveness {
  private record Heard(String address, Instant at) {}

  private final ConcurrentHashMap<String, Heard> heard = new ConcurrentHashMap<>();

  /** Notes a heartbeat the committed state accepted from the agent at {@code address}; thread-safe. */
  void heard(String node, String address, Instant at) {
    heard.merge(node, new Heard(address, at), (was, now) ->
        was.address().equals(now.address()) && was.at().isAfter(now.at()) ? was : now);
  }

  /**
   * When the node's current agent was last heard: the later of what the writer committed (its
   * registration, heartbeats it applied) and a heartbeat noted here from the same agent; for a
   * DOWN node only the former (its heartbeats are refused until it registers again).
   */
  public Instant lastHeard(NodeStatus n) {
    Heard h = heard.get(n.name());
    Instant committed = n.lastHeartbeat();
    if (h == null || n.state() == NodeState.DOWN || !h.address().equals(n.address())) {
      return committed;
    }
    return committed == null || h.at().isAfter(committed) ? h.at() : committed;
  }
}
