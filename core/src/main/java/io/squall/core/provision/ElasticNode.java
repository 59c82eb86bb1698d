package io.squall.core.provision;

import io.squall.core.model.NodeState;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One node of an elastic partition as the power planner sees it.
 *
 * @param placementGroup the Squall placement group (a gang's nodes share it)
 * @param since when the node entered its state or a job last took or left it (idle since, resume
 *     requested at, ...): the suspend and resume timers count from it
 * @param jobs the jobs that hold it (running, or waiting for it to boot), in key order
 * @param launched whether a launch call made its instance (false while it waits for one)
 * @param zone the zone its instance runs in; null when it has none
 * @param attempts failed launch calls since its resume was requested, not counting failures
 *     another offering may not have (capacity, price, quota): those fall back, they use no attempt
 * @param retryAt no launch call before this instant (backoff after a failure); null for none
 * @param leftBy while it is idle: the jobs that held it last (a requeued gang that may be
 *     placed elsewhere); empty otherwise
 */
public record ElasticNode(String name, String partition, String placementGroup, NodeState state, Instant since,
    List<String> jobs, boolean launched, String zone, int attempts, Instant retryAt, List<String> leftBy) {
  public ElasticNode {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(since, "since");
    jobs = List.copyOf(jobs);
    leftBy = List.copyOf(leftBy);
  }

  /** A node no job has just left. */
  public ElasticNode(String name, String partition, String placementGroup, NodeState state, Instant since,
      List<String> jobs, boolean launched, String zone, int attempts, Instant retryAt) {
    this(name, partition, placementGroup, state, since, jobs, launched, zone, attempts, retryAt, List.of());
  }

  /** Whether a job holds it. */
  public boolean busy() {
    return !jobs.isEmpty();
  }

  /** Launched and not given back: it has (or is getting) a machine in {@link #zone()}. */
  public boolean live() {
    return launched && zone != null && state != NodeState.CLOUD && state != NodeState.DOWN
        && state != NodeState.POWERING_DOWN;
  }

  /** Powering up and still without an instance: it needs a launch call. */
  public boolean awaitingLaunch() {
    return state == NodeState.POWERING_UP && !launched;
  }
}
