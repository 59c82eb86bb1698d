package io.squall.api.state;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * A node as the controller sees it.
 *
 * @param node the core's node; its state is IDLE/MIXED/ALLOCATED as jobs come and go, DOWN while
 *     its agent is away
 * @param reason why the node is out of service (or powering), null when it has none
 * @param address the agent's HTTP base address, null before it registered
 * @param lastHeartbeat when the agent was last heard (not stored: a restarted controller gives
 *     every agent a fresh node timeout to report in)
 * @param reasonUser who set the reason: an operator's name, or {@link #CONTROLLER} for one the
 *     controller set; null until the batch that stores the node stamps it ({@link #stampedAfter})
 * @param reasonTime when the reason was set; null as {@code reasonUser} is
 */
public record NodeStatus(Node node, String reason, String address, Instant lastHeartbeat, Long version,
    String reasonUser, Instant reasonTime) {
  /** Who a reason the controller set itself is from, as Slurm names its SlurmUser (the service's account). */
  public static final String CONTROLLER = "squall";

  /** A node whose reason, if new, the batch storing it stamps with the controller and its instant. */
  public NodeStatus(Node node, String reason, String address, Instant lastHeartbeat, Long version) {
    this(node, reason, address, lastHeartbeat, version, null, null);
  }

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

  /** The state and the controller's reason for it. */
  public NodeStatus withState(NodeState state, String why) {
    return new NodeStatus(node.withState(state), why, address, lastHeartbeat, version);
  }

  /** The state and {@code user}'s reason for it (an operator's drain). */
  public NodeStatus withState(NodeState state, String why, String user) {
    return new NodeStatus(node.withState(state), why, address, lastHeartbeat, version, user, null);
  }

  public NodeStatus heardAt(Instant at) {
    return new NodeStatus(node, reason, address, at, version, reasonUser, reasonTime);
  }

  public NodeStatus withVersion(Long newVersion) {
    return new NodeStatus(node, reason, address, lastHeartbeat, newVersion, reasonUser, reasonTime);
  }

  /**
   * This node as stored after {@code before} at {@code now}: a reason keeps who set it and when
   * while it stays the same (a copy for another change carries none, and an unchanged drain is not
   * set again), a new or changed one is stamped with its user (the controller unless an operator's)
   * and {@code now}, and no reason has neither, as in Slurm's reason_uid and reason_time.
   */
  public NodeStatus stampedAfter(NodeStatus before, Instant now) {
    if (reason == null) {
      return reasonUser == null && reasonTime == null ? this : stamped(null, null);
    }
    if (reasonTime != null) {
      return this;
    }
    boolean same = before != null && reason.equals(before.reason()) && before.reasonTime() != null
        && (reasonUser == null || reasonUser.equals(before.reasonUser()));
    // Whole seconds, as Slurm's reason_time: the same moment in memory and once stored.
    return same ? stamped(before.reasonUser(), before.reasonTime())
        : stamped(reasonUser == null ? CONTROLLER : reasonUser, now.truncatedTo(ChronoUnit.SECONDS));
  }

  private NodeStatus stamped(String user, Instant at) {
    return new NodeStatus(node, reason, address, lastHeartbeat, version, user, at);
  }
}
