package io.squall.core.provision;

import io.squall.core.model.NodeState;
import java.time.Instant;
import java.util.Objects;

/**
 * One node of an elastic partition as the power planner sees it.
 *
 * @param placementGroup the Squall placement group (a gang's nodes share it)
 * @param since when the node entered its state or a job last took or left it (idle since, resume
 *     requested at, ...): the suspend and resume timers count from it
 * @param busy whether a job holds it (running or waiting for it to boot)
 * @param launched whether a launch call made its instance (false while it waits for one)
 * @param zone the zone its instance runs in; null when it has none
 * @param attempts launch calls made for it since its resume was requested
 * @param retryAt no launch call before this instant (backoff after a failure); null for none
 */
public record ElasticNode(String name, String partition, String placementGroup, NodeState state, Instant since,
    boolean busy, boolean launched, String zone, int attempts, Instant retryAt) {
  public ElasticNode {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(since, "since");
  }

  /** Powering up and still without an instance: it needs a launch call. */
  public boolean awaitingLaunch() {
    return state == NodeState.POWERING_UP && !launched;
  }
}
