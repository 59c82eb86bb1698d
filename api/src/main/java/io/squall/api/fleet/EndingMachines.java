package io.squall.api.fleet;

import io.squall.api.scheduling.Wakeup;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Cloud machines whose terminate was sent and that the provider still lists: an EC2 instance
 * shutting down, a GCE one stopping. A terminate returns once the provider accepted it, and what
 * ran on the machine may go on for seconds after that, so a job whose last run was there does not
 * start again until the provider no longer lists the machine ({@code CompletingRuns}). Filled as
 * the fleet terminates instances; emptied by the fleet's lists of the provider's instances, made
 * every {@link #CHECK_EVERY} while a machine is ending. Memory only: after a restart the restart
 * check of {@code CompletingRuns} stands in for it.
 */
@Singleton
public final class EndingMachines {
  /** How often the fleet lists the provider's instances while a machine is ending. */
  static final Duration CHECK_EVERY = Duration.ofSeconds(5);

  /** The ending machines' nodes, by instance id. */
  private final ConcurrentMap<String, String> nodes = new ConcurrentHashMap<>();
  private final Wakeup scheduler;

  public EndingMachines(Wakeup scheduler) {
    this.scheduler = scheduler;
  }

  /** The terminate of the node's machine {@code instanceId} was accepted. */
  void terminated(String node, String instanceId) {
    nodes.put(instanceId, node);
  }

  /** Whether a machine the node had may still run what was on it. */
  public boolean ending(String node) {
    return nodes.containsValue(node);
  }

  boolean any() {
    return !nodes.isEmpty();
  }

  /**
   * The provider listed {@code live}, every instance of the cluster it has not terminated: the
   * ending machines not among them are gone, and the jobs held back for them may start.
   */
  void listed(Set<String> live) {
    if (nodes.keySet().removeIf(id -> !live.contains(id))) {
      scheduler.wake();
    }
  }
}
