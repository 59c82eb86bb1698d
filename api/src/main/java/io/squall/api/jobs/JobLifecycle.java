package io.squall.api.jobs;

import io.squall.api.agents.AgentClient;
import io.squall.api.agents.BatchEnvironment;
import io.squall.api.agents.CompletingRuns;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.metrics.SquallMetrics;
import io.squall.api.output.OutputStore;
import io.squall.api.spot.DrainingJobs;
import io.squall.api.state.Batch;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.NodeState;
import io.squall.core.priority.UsageMeter;
import io.squall.spot.drain.DrainMark;
import io.squall.spot.drain.DrainRules;
import io.squall.spot.drain.RequeueDecision;
import jakarta.inject.Singleton;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The transitions of a job's life, each staged in a batch with its event and, after the commit,
 * its effect on the nodes: start, stop (cancel, time limit), end (the batch script exited),
 * requeue (same id, one more restart).
 */
@Singleton
public final class JobLifecycle {
  private static final Logger LOG = LoggerFactory.getLogger(JobLifecycle.class);
  private final SecureRandom random = new SecureRandom();
  private final AgentClient agents;
  private final BatchEnvironment environment;
  private final SquallConfig config;
  private final SquallMetrics metrics;
  private final StateWriter writer;
  private final OutputStore output;
  private final DrainingJobs draining;
  private final ClusterLayout layout;
  private final UsageMeter usageMeter;
  private final LaunchDeliveries deliveries;
  private final CompletingRuns completing;

  public JobLifecycle(AgentClient agents, BatchEnvironment environment, SquallConfig config, SquallMetrics metrics,
      StateWriter writer, OutputStore output, DrainingJobs draining, ClusterLayout layout, UsageMeter usageMeter,
      LaunchDeliveries deliveries, CompletingRuns completing) {
    this.deliveries = deliveries;
    this.completing = completing;
    this.usageMeter = usageMeter;
    this.output = output;
    this.draining = draining;
    this.layout = layout;
    this.agents = agents;
    this.environment = environment;
    this.config = config;
    this.metrics = metrics;
    this.writer = writer;
  }

  /**
   * Starts a pending job (or array task: one still in its array's pending remainder is taken off
   * it, with a job id of its own) on {@code grants}. The caller has checked the job is pending and
   * the nodes are up.
   */
  public void start(Batch b, JobKey key, String partition, List<GpuGrant> grants) {
    StoredJob source = b.job(key);
    if (source == null) {
      source = ArrayTasks.splitOff(b, key);
    }
    Job started = allocated(source.job(), b, key, partition, grants);
    b.update(source.startedWith(started, credential()));
    List<String> nodes = grants.stream().map(GpuGrant::node).toList();
    if (started.state() == JobState.CONFIGURING) {
      List<String> resuming = new ArrayList<>();
      for (String name : nodes) {
        NodeStatus n = b.node(name);
        if (n.state() == NodeState.CLOUD) {
          b.update(n.withState(NodeState.POWERING_UP, "resumed for job " + key), true);
        }
        if (n.state().resumable()) {
          resuming.add(name);
        }
      }
      b.event(key, JobState.CONFIGURING, "allocated " + Hostlist.compress(nodes) + "; powering up "
          + Hostlist.compress(resuming));
      return;
    }
    b.event(key, JobState.RUNNING, "started on " + Hostlist.compress(nodes));
    launchAfterCommit(b, b.job(key));
  }

  /** Running at once when every node is up; else configuring while the powered-down ones come up. */
  private static Job allocated(Job job, Batch b, JobKey key, String partition, List<GpuGrant> grants) {
    boolean allUp = grants.stream().map(g -> b.node(g.node())).allMatch(NodeStatus::isUp);
    return allUp ? job.started(key, partition, grants, b.now()) : job.configuring(key, partition, grants);
  }

  /**
   * A configuring job whose nodes are all up now starts: it runs from now and its batch script is
   * launched. Does nothing while any of its nodes is still on its way.
   */
  public void nodesReady(Batch b, StoredJob j) {
    if (j.job().state() != JobState.CONFIGURING
        || !j.job().allocation().stream().map(g -> b.node(g.node())).allMatch(n -> n != null && n.isUp())) {
      return;
    }
    Job running = j.job().started(j.key(), j.job().partition(), j.job().allocation(), b.now());
    b.update(j.withJob(running));
    b.event(j.key(), JobState.RUNNING, "started on "
        + Hostlist.compress(running.allocation().stream().map(GpuGrant::node).toList()));
    launchAfterCommit(b, b.job(j.key()));
  }

  private void launchAfterCommit(Batch b, StoredJob launched) {
    Map<String, String> addresses = addresses(b, launched);
    deliveries.queued(launched);
    b.afterCommit(() -> {
      try {
        launch(launched, addresses);
      } finally {
        deliveries.back(launched);
      }
    });
  }

  private void launch(StoredJob job, Map<String, String> addresses) {
    metrics.jobStarted();
    Map<String, Map<String, Object>> launches;
    try {
      launches = environment.launches(job, addresses);
    } catch (RuntimeException e) {
      // Not the nodes' fault: the job itself cannot be prepared, so it fails instead of hanging RUNNING.
      LOG.warn("job {}: cannot prepare its launch", job.key(), e);
      writer.write(b -> {
        StoredJob j = b.job(job.key());
        if (j != null && j.job().state().holdsResources()) {
          String why = "launch could not be prepared: " + e.getMessage();
          end(b, j, JobState.FAILED, why, why);
        }
        return null;
      });
      return;
    }
    // Helper nodes first, so the batch node's srun finds every node ready.
    List<String> order = new ArrayList<>(launches.keySet());
    order.add(order.remove(0));
    for (String node : order) {
      try {
        agents.launch(node, addresses.get(node), launches.get(node));
      } catch (AgentClient.AgentUnreachable e) {
        if (e.mayHaveArrived()) {
          // The job may run there: starting it elsewhere now could run it twice. The node's
          // reports decide: its heartbeat lists the job, or (its agent restarted and killed what
          // its predecessor left, or it went silent) it is requeued after the node timeout.
          LOG.warn("job {}: launch on {} may have reached it ({}); the node's reports will tell", job.key(), node,
              e.getMessage());
          return;
        }
        LOG.warn("job {}: launch on {} failed: {}", job.key(), node, e.getMessage());
        launchFailed(job, node, e.getMessage());
        return;
      }
    }
  }

  /**
   * A node did not take a job's launch: the node is suspect, the job goes back to the queue. A
   * failure that comes after the run it was for has ended (stopped by an interruption while its
   * launch was on its way, say) is stale: it says nothing of the job's next run.
   */
  private void launchFailed(StoredJob launched, String node, String why) {
    writer.write(b -> {
      StoredJob j = b.job(launched.key());
      if (j == null || !j.job().state().holdsResources() || j.job().restartCount() != launched.job().restartCount()) {
        return null;
      }
      NodeStatus n = b.node(node);
      if (n != null && n.state() != NodeState.DOWN) {
        b.update(n.withState(NodeState.DOWN, "launch failed: " + why), true);
      }
      nodeFailed(b, j, "launch on " + node + " failed: " + why);
      return null;
    });
  }

  /**
   * Stops a job: a pending one ends at once in {@code finalState}; a running one is sent SIGTERM
   * (SIGKILL after KillWait) and ends when its batch script exits. {@code REQUEUED} as the final
   * state puts it back in the queue then.
   */
  public void stop(Batch b, StoredJob j, JobState finalState, String why) {
    if (j.job().state() == JobState.PENDING) {
      b.update(j.withJob(j.job().finished(finalState, null, b.now())).ending(null, why));
      b.event(j.key(), finalState, why);
      return;
    }
    if (!j.job().state().holdsResources() || j.ending() != null) {
      return;
    }
    if (j.job().state() == JobState.CONFIGURING) {
      // Nothing runs yet: it ends (or goes back to the queue) at once.
      ended(b, j.ending(finalState, why), 0, null);
      return;
    }
    if (j.submission().interactive()) {
      // No batch script will report an exit: the allocation ends now. Its steps' tasks get SIGTERM,
      // then SIGKILL as the agents drop the job; the srun that ran them sees them end.
      b.event(j.key(), j.job().state(), why);
      signalNodes(b, j, "TERM", 0);
      ended(b, j.ending(finalState, why), 0, null);
      return;
    }
    b.update(j.ending(finalState, why));
    b.event(j.key(), j.job().state(), why + ": stopping (SIGTERM, SIGKILL after " + config.getKillWait().toSeconds() + " s)");
    signalNodes(b, j, "TERM", config.getKillWait().toSeconds());
  }

  /** scancel -s: sends a signal to every process of a running job and changes nothing else. */
  public void signal(Batch b, StoredJob j, String signal, String byUser) {
    b.event(j.key(), j.job().state(), "signal " + signal + " sent by " + byUser);
    signalNodes(b, j, signal, 0);
  }

  /**
   * The checkpoint signal of an interrupted job: to the batch shell only ({@code --signal=B:...})
   * or to every process of the job on every node.
   */
  public void checkpointSignal(Batch b, StoredJob j, String signal, boolean batchOnly, String why) {
    b.event(j.key(), j.job().state(), why + ": SIG" + signal + " sent" + (batchOnly ? " to the batch shell" : ""));
    if (batchOnly) {
      Map<String, String> addresses = addresses(b, j);
      String batchNode = j.job().allocation().get(0).node();
      b.afterCommit(() -> signalOne(j, batchNode, addresses.get(batchNode), signal, 0, true));
    } else {
      signalNodes(b, j, signal, 0);
    }
  }

  /** After the commit, signals the job's processes on every node it holds (SIGKILL after {@code killWait} s when > 0). */
  private void signalNodes(Batch b, StoredJob j, String signal, long killWait) {
    Map<String, String> addresses = addresses(b, j);
    b.afterCommit(() -> addresses.forEach((node, address) -> signalOne(j, node, address, signal, killWait, false)));
  }

  private void signalOne(StoredJob j, String node, String address, String signal, long killWait, boolean batchOnly) {
    try {
      agents.signal(node, address, j.key().toString(), signal, killWait, batchOnly);
    } catch (AgentClient.AgentUnreachable e) {
      LOG.warn("job {}: cannot signal on {}: {}", j.key(), node, e.getMessage());
    }
  }

  /** The batch script exited: the job ends as its exit status (or its pending stop) says. */
  public void ended(Batch b, StoredJob j, int exitCode, Integer signal) {
    DrainMark drain = draining.of(j);
    if (drain != null && j.ending() == null) {
      // Signalled to checkpoint and gone (checkpointed and left, or died of the signal): handled
      // as the drain says, not ended.
      String why = drain.why() + "; the job exited " + exitCode + (signal == null ? "" : " (signal " + signal + ")")
          + " before it was stopped";
      switch (drain.kind()) {
        case USER -> requeueCheckpointed(b, j, why, drain.hold());
        case INTERRUPTION -> interrupted(b, j, why, drain.earlierInterruptions());
        case PREEMPTION_REQUEUE -> preempted(b, j, why, true);
        case PREEMPTION_CANCEL -> preempted(b, j, why, false);
      }
      return;
    }
    JobState finalState = j.ending() != null ? j.ending() : exitCode == 0 ? JobState.COMPLETED : JobState.FAILED;
    String why = j.ending() != null ? j.reason() : exitCode == 0 ? "None" : "NonZeroExitCode";
    if (finalState == JobState.REQUEUED) {
      requeue(b, j, why);
      return;
    }
    release(b, j);
    b.update(j.withJob(j.job().finished(finalState, exitCode, b.now())).ending(null, why).withExitSignal(signal));
    b.event(j.key(), finalState, "exit code " + exitCode + (signal == null ? "" : ", signal " + signal)
        + (why.equals("None") ? "" : " (" + why + ")"));
  }

  /** Back to the queue with the same id and one more restart; its nodes are told to kill what is left. */
  public void requeue(Batch b, StoredJob j, String why) {
    requeueAs(b, j, j.job().requeued(), JobState.REQUEUED, why,
        "requeued (restart " + (j.job().restartCount() + 1) + ")");
  }

  /**
   * Stages a requeue: the gang released (its nodes told to kill what is left), the job back in
   * the queue as {@code requeued}, its output cleared, its history {@code asState} (why) then
   * PENDING ({@code next}).
   */
  private void requeueAs(Batch b, StoredJob j, Job requeued, JobState asState, String why, String next) {
    release(b, j);
    b.update(j.withJob(requeued).ending(null, why));
    b.event(j.key(), asState, why);
    b.afterCommit(() -> output.clear(j.key().toString()));
    b.event(j.key(), JobState.PENDING, next);
  }

  /**
   * A spot interruption took one of the job's nodes and the job was given its chance to
   * checkpoint: with --no-requeue it ends PREEMPTED; else it goes back to the queue (PREEMPTED
   * then PENDING in its history, same id, one more restart, its age kept), from its second
   * interruption on not before its partition's backoff (doubled per interruption), and held once
   * it has been interrupted more often than its partition's max-restarts.
   * Every node of the gang is told to kill what is left of it.
   */
  public void interrupted(Batch b, StoredJob j, String why, int earlierInterruptions) {
    if (!j.job().state().holdsResources() || j.ending() != null) {
      return; // already being stopped for another reason (scancel, time limit): that wins
    }
    DrainMark drain = draining.of(j);
    DrainRules rules = layout.checkpointPolicy(j.job().partition()).drainRules();
    RequeueDecision d = RequeueDecision.afterInterruption(Boolean.FALSE.equals(j.request().control().requeue()),
        earlierInterruptions, drain != null && drain.hold(), rules, b.now());
    if (d.outcome() == RequeueDecision.Outcome.END) {
      end(b, j, JobState.PREEMPTED, why, why + " (--no-requeue: not requeued)");
      return;
    }
    int restart = j.job().restartCount() + 1;
    String next;
    if (d.outcome() == RequeueDecision.Outcome.HOLD) {
      next = d.pastMaxRestarts(rules)
          ? "requeued (restart " + restart + ") and held: interrupted " + d.interruption()
              + (d.interruption() == 1 ? " time" : " times") + ", more than max-restarts (" + rules.maxRestarts()
              + "); scontrol release runs it again"
          : "requeued (restart " + restart + ") after an interruption, and held: it was paused meanwhile";
    } else if (d.notBefore() == null) {
      next = "requeued (restart " + restart + ") after an interruption";
    } else {
      // Interrupted again and again, it waits longer each time, so a bad zone is not hammered.
      next = "requeued (restart " + restart + ") after an interruption, not before " + d.notBefore();
    }
    requeueAs(b, j, d.applyTo(j.job().requeued()), JobState.PREEMPTED, why, next);
  }

  /**
   * A preempted job after its grace time (or its checkpoint): back to the queue whole (PREEMPTED
   * then PENDING in its history, with who preempted it, one more restart, its age kept; not an
   * interruption: max-restarts does not count it), or with {@code requeue} false (PreemptMode
   * CANCEL, or {@code --no-requeue}) ended PREEMPTED. Every node of the gang is told to kill what
   * is left of it.
   */
  public void preempted(Batch b, StoredJob j, String why, boolean requeue) {
    if (!j.job().state().holdsResources() || j.ending() != null) {
      return; // already being stopped for another reason (scancel, time limit): that wins
    }
    if (requeue && !Boolean.FALSE.equals(j.request().control().requeue())) {
      requeueAs(b, j, j.job().requeued(), JobState.PREEMPTED, why,
          "requeued (restart " + (j.job().restartCount() + 1) + ") after preemption");
      return;
    }
    end(b, j, JobState.PREEMPTED, why, why);
  }

  /**
   * A user's requeue after the job was given its chance to checkpoint ({@code scontrol requeue},
   * {@code squall pause}): back to the queue whole (REQUEUED then PENDING, one more restart),
   * held when {@code hold}. Every node of the gang is told to kill what is left of it.
   */
  public void requeueCheckpointed(Batch b, StoredJob j, String why, boolean hold) {
    if (!j.job().state().holdsResources() || j.ending() != null) {
      return; // already being stopped for another reason (scancel, time limit): that wins
    }
    Job requeued = j.job().requeued();
    if (hold) {
      requeued = requeued.withRequest(requeued.request().withHold(true));
    }
    requeueAs(b, j, requeued, JobState.REQUEUED, why, "requeued (restart " + requeued.restartCount() + ")"
        + (hold ? " and held: scontrol release runs it again" : ""));
  }

  /** The job's nodes failed under it: requeue it unless it asked not to be (--no-requeue), else NODE_FAIL. */
  public void nodeFailed(Batch b, StoredJob j, String why) {
    if (Boolean.FALSE.equals(j.request().control().requeue())) {
      end(b, j, JobState.NODE_FAIL, why, why);
    } else {
      requeue(b, j, why);
    }
  }

  /** Ends a job without an exit status of its own: its nodes released, its history saying {@code event}. */
  private void end(Batch b, StoredJob j, JobState state, String why, String event) {
    release(b, j);
    b.update(j.withJob(j.job().finished(state, null, b.now())).ending(null, why));
    b.event(j.key(), state, event);
  }

  /**
   * Charges the rest of the job's run to fair-share and tells its nodes to clean up; the job does
   * not start again until they have, or are gone ({@link CompletingRuns}).
   */
  private void release(Batch b, StoredJob j) {
    if (j.job().state().holdsResources()) {
      b.usage(usageMeter.ended(b.usage(), j.job(), b.now()));
    }
    Map<String, String> addresses = addresses(b, j);
    int run = j.job().restartCount();
    completing.ended(j.key(), addresses.keySet());
    b.afterCommit(() -> {
      metrics.jobFinished();
      addresses.forEach((node, address) -> {
        boolean over = false;
        try {
          over = agents.forget(node, address, j.key().toString(), run);
        } catch (AgentClient.AgentUnreachable e) {
          LOG.debug("job {}: {} did not take the clean-up: {}", j.key(), node, e.getMessage());
        }
        completing.cleanUpSent(j.key(), node, over);
      });
    });
  }

  private static Map<String, String> addresses(Batch b, StoredJob j) {
    Map<String, String> addresses = new LinkedHashMap<>();
    for (GpuGrant g : j.job().allocation()) {
      NodeStatus n = b.node(g.node());
      if (n != null && n.address() != null) {
        addresses.put(g.node(), n.address());
      }
    }
    return addresses;
  }

  private String credential() {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
