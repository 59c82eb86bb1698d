package io.squall.api.agents;

import io.squall.api.scheduling.Wakeup;
import io.squall.api.state.ClusterState;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.core.model.JobKey;
import io.squall.core.model.NodeState;
import io.squall.core.schedule.Action;
import io.squall.core.schedule.Plan;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Holds back, after this controller starts (a restart, or a standby's takeover), every job that
 * ran before (one more restart than none), until each node that had an agent when the state was
 * loaded has reported to this controller holding nothing it does not run there, or is no longer
 * up. A job's end is committed before its nodes are told to kill what is left of it; a controller
 * that died in between left that run going, and the job, pending again, could start elsewhere
 * beside it. The agent's next report names the run, the controller answers it is a stray and the
 * agent kills it ({@link AgentReports}); only the report after that, without it, lets such a job
 * start. With agents beating every 5 s, a held job waits 5 to 10 s after the start.
 */
@Singleton
public final class RestartGate {
  /** The nodes not yet heard from, clean, since the start. */
  private final Set<String> unheard = ConcurrentHashMap.newKeySet();
  private final StateWriter writer;
  private final Wakeup scheduler;

  public RestartGate(StateWriter writer, Wakeup scheduler) {
    this.writer = writer;
    this.scheduler = scheduler;
    for (NodeStatus n : writer.state().nodes()) {
      if (n.address() != null && n.state() != NodeState.DOWN) {
        unheard.add(n.name());
      }
    }
  }

  /** The node's agent reported, holding only what this controller runs there. */
  void heardClean(String node) {
    if (unheard.remove(node) && unheard.isEmpty()) {
      scheduler.wake(); // the jobs held back may start now
    }
  }

  /** {@code plan} without the starts of jobs held back; the plan itself while nothing is. */
  public Plan filter(Plan plan) {
    if (unheard.isEmpty()) {
      return plan;
    }
    ClusterState state = writer.state();
    // A node gone since (DOWN, released, its agent gone) holds nothing that could still run.
    unheard.removeIf(name -> {
      NodeStatus n = state.node(name);
      return n == null || n.address() == null || n.state() == NodeState.DOWN;
    });
    if (unheard.isEmpty()) {
      return plan;
    }
    List<Action> kept = plan.actions().stream().filter(a -> !(a instanceof Action.Start s && ranBefore(state, s.job())))
        .toList();
    return kept.size() == plan.actions().size() ? plan : new Plan(kept);
  }

  private static boolean ranBefore(ClusterState state, JobKey key) {
    StoredJob j = state.job(key);
    return j != null && j.job().restartCount() > 0;
  }
}
