package io.squall.api.agents;

import io.squall.api.fleet.EndingMachines;
import io.squall.api.scheduling.Wakeup;
import io.squall.api.state.ClusterState;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.NodeState;
import jakarta.inject.Singleton;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Holds a job back from starting again while a run of it may still go on somewhere: Slurm's
 * COMPLETING, where a requeued job stays pending and completing until every node of its last run
 * has killed what was left of it, and the scheduler does not start it meanwhile. A run's end is
 * committed before its nodes are told to kill what is left of it, and a node may be slow to do so,
 * unreachable, or not told at all. Two kinds of run are waited for:
 * <ul>
 *   <li>A run that ended while this controller ran: each node of it with an agent counts until the
 *       agent answers the clean-up with nothing of the run left, or reports without the job once
 *       the clean-up was sent (taken or not), or the node is gone: DOWN, or without an agent, as
 *       Slurm takes a DOWN node, and for a cloud node its machine gone as well: terminated, and no
 *       longer listed by the provider ({@link EndingMachines}), since an instance shutting down
 *       may still run what was on it.
 *   <li>After this controller starts (a restart, or a standby's takeover), runs a controller that
 *       died ended without telling their nodes: every job that ran before (one more restart than
 *       none) waits until each node that had an agent when the state was loaded has reported
 *       holding nothing this controller does not run there, or is gone. The node's report names
 *       such a run, the controller answers it is a stray and the agent kills it ({@link
 *       AgentReports}); only a later report, without it, counts. With agents beating every 5 s,
 *       such a job waits 5 to 10 s after the start.
 * </ul>
 */
@Singleton
public final class CompletingRuns {
  /** Ended runs' nodes not yet known clean, by job; a node's flag says whether its clean-up was sent. */
  private final ConcurrentMap<JobKey, Map<String, Boolean>> ended = new ConcurrentHashMap<>();
  /**
   * The same runs by node, those whose clean-up was sent: what a node's report may settle, so that
   * a heartbeat looks at its own node's runs only, however many are waited for elsewhere.
   */
  private final ConcurrentMap<String, Set<JobKey>> sent = new ConcurrentHashMap<>();
  /** The nodes not yet heard from, clean, since the start. */
  private final Set<String> unheard = ConcurrentHashMap.newKeySet();
  private final StateWriter writer;
  private final Wakeup scheduler;
  private final EndingMachines machines;

  public CompletingRuns(StateWriter writer, Wakeup scheduler, EndingMachines machines) {
    this.machines = machines;
    this.writer = writer;
    this.scheduler = scheduler;
    for (NodeStatus n : writer.state().nodes()) {
      if (n.address() != null && n.state() != NodeState.DOWN) {
        unheard.add(n.name());
      }
    }
  }

  /**
   * A run of the job ended (staged, on the writer thread, before the job can be seen pending): it
   * may not start again until each of {@code nodes}, those of the run with an agent, is clean, as
   * well as any node still waited for from before (a job that never ran adds none).
   */
  public void ended(JobKey job, Collection<String> nodes) {
    if (nodes.isEmpty()) {
      return;
    }
    ended.compute(job, (k, waiting) -> {
      Map<String, Boolean> all = waiting != null ? waiting : new ConcurrentHashMap<>();
      nodes.forEach(n -> all.put(n, false));
      return all;
    });
  }

  /**
   * The clean-up of the job's ended run was sent to {@code node}: {@code over} when the agent
   * answered that nothing of the run is left there; otherwise the node's next report settles it.
   */
  public void cleanUpSent(JobKey job, String node, boolean over) {
    Map<String, Boolean> left = ended.computeIfPresent(job, (k, waiting) -> {
      if (over) {
        waiting.remove(node);
      } else if (waiting.replace(node, true) != null) {
        sent.computeIfAbsent(node, n -> ConcurrentHashMap.newKeySet()).add(job);
      }
      return waiting.isEmpty() ? null : waiting;
    });
    if (over && left == null) {
      scheduler.wake(); // it may start again
    }
  }

  /**
   * The node's agent reported the jobs it holds ({@code held}); {@code clean}: none of them is a
   * stray. An ended run it no longer holds, its clean-up sent, is over there.
   */
  void reported(String node, Set<String> held, boolean clean) {
    boolean freed = clean && unheard.remove(node) && unheard.isEmpty();
    Set<JobKey> jobs = sent.get(node);
    if (jobs != null) {
      for (JobKey job : List.copyOf(jobs)) {
        if (held.contains(job.toString())) {
          continue;
        }
        jobs.remove(job);
        boolean[] emptied = {false};
        ended.computeIfPresent(job, (k, waiting) -> {
          // Only a clean-up already sent: a later run's end there is settled by a later report.
          if (Boolean.TRUE.equals(waiting.get(node))) {
            waiting.remove(node);
          }
          emptied[0] = waiting.isEmpty();
          return emptied[0] ? null : waiting;
        });
        freed |= emptied[0];
      }
    }
    if (freed) {
      scheduler.wake(); // the jobs held back may start now
    }
  }

  /**
   * The pending jobs held back now, for the cycle to leave out ({@link ClusterSnapshot#completing}):
   * called after the cycle's snapshot is read, so that every job it sees pending whose run had
   * ended is among them.
   */
  public Set<JobKey> held() {
    if (unheard.isEmpty() && ended.isEmpty()) {
      return Set.of();
    }
    ClusterState state = writer.state();
    // A node gone since (DOWN, released, its agent gone) holds nothing that could still run.
    unheard.removeIf(name -> gone(state, name));
    sent.keySet().removeIf(name -> gone(state, name));
    for (JobKey job : List.copyOf(ended.keySet())) {
      ended.computeIfPresent(job, (k, waiting) -> {
        waiting.keySet().removeIf(name -> gone(state, name));
        return waiting.isEmpty() ? null : waiting;
      });
    }
    Set<JobKey> held = new HashSet<>();
    for (JobKey job : ended.keySet()) {
      StoredJob j = state.job(job);
      if (j != null && j.job().state() == JobState.PENDING) {
        held.add(job);
      }
    }
    if (!unheard.isEmpty()) {
      for (StoredJob j : state.jobs()) {
        if (j.job().state() == JobState.PENDING && j.job().restartCount() > 0) {
          held.add(j.key());
        }
      }
    }
    return held;
  }

  /**
   * Whether nothing can still run on the node: it is DOWN or without an agent, as Slurm takes a
   * DOWN node, and if it is a cloud node, its machine is gone too. A cloud node has its machine
   * until the fleet's terminate of it is accepted, and the machine is ending until the provider no
   * longer lists it; the state is read before the ending machines, as the fleet marks a machine
   * ending before the node loses it in the state.
   */
  private boolean gone(ClusterState state, String name) {
    NodeStatus n = state.node(name);
    if (n == null) {
      return true;
    }
    boolean hasMachine = n.node().capacityType() != null;
    return (n.address() == null || n.state() == NodeState.DOWN) && !hasMachine && !machines.ending(name);
  }
}
