package io.squall.api.state;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import java.time.Instant;

/**
 * A node as the controller sees it.
 *
 * @param node the core's node; its state is IDLE/MIXED/ALLOCATED as jobs come and go, DOWN while
 *     its agent is away
 * @param address the agent's HTTP base address, null before it registered
 * @param lastHeartbeat when the agent was last heard (not stored: a restarted controller gives
 *     every agent a fresh node timeout to report in)
 */
public record NodeStatus(Node node, String reason, String address, Instant lastHeartbeat, Long version) {
  public String name() {
    return node.name();
  }

  public NodeState state() {
    return node.state();
  }

  /** Registered and accepting work: a job's batch script can be launched on it. */
  public boolean isUp() {
    return node.state().acceptsWork() && address != null;
  }

  public NodeStatus withState(NodeState state, String why) {
    return new NodeStatus(node.withState(state), why, address, lastHeartbeat, version);
  }

  public NodeStatus heardAt(Instant at) {
    return new NodeStatus(node, reason, address, at, version);
  }

  public NodeStatus withVersion(Long newVersion) {
    return new NodeStatus(node, reason, address, lastHeartbeat, newVersion);
  }
}
