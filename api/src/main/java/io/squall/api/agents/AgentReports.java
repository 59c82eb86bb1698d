package io.squall.api.agents;

import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.jobs.JobLifecycle;
import io.squall.api.jobs.LaunchDeliveries;
import io.squall.api.scheduling.Wakeup;
import io.squall.api.state.ApiException;
import io.squall.api.state.Batch;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What node agents tell the controller (registration, heartbeats, exits, failed launches) and
 * what their silence means (a node past its heartbeat timeout goes DOWN and its jobs are requeued
 * or fail with NODE_FAIL).
 */
@Singleton
public final class AgentReports {
  private static final Logger LOG = LoggerFactory.getLogger(AgentReports.class);
  private final StateWriter writer;
  private final JobLifecycle lifecycle;
  private final ClusterLayout layout;
  private final SquallConfig config;
  private final NodeLiveness liveness;
  private final InstantSource clock;
  private final Wakeup scheduler;
  private final LaunchDeliveries deliveries;
  private final CompletingRuns completing;

  public AgentReports(StateWriter writer, JobLifecycle lifecycle, ClusterLayout layout, SquallConfig config,
      NodeLiveness liveness, InstantSource clock, Wakeup scheduler, LaunchDeliveries deliveries,
      CompletingRuns completing) {
    this.completing = completing;
    this.scheduler = scheduler;
    this.deliveries = deliveries;
    this.liveness = liveness;
    this.clock = clock;
    this.writer = writer;
    this.lifecycle = lifecycle;
    this.layout = layout;
    this.config = config;
  }

  /** What an agent says about its node when it registers. */
  public record Registration(String name, String address, int gpus, String gpuType, int cpus, long memoryMb,
      List<String> features, String placementGroup, List<String> running) {}

  /** A batch script's exit as an agent reports it. */
  public record Exit(String job, int exitCode, Integer signal) {}

  /**
   * Records the node and what its agent runs; answers the strays among those runs (see {@link
   * #strays}), which the agent kills.
   *
   * @throws ApiException 404 for a node no partition has; 409 for an elastic node whose machine the
   *     fleet has given up ({@link #machineGivenUp}): the agent keeps trying until its machine goes
   */
  public CompletableFuture<List<String>> register(Registration r) {
    return writer.write(b -> {
      Node configured = layout.node(r.name());
      if (configured == null) {
        throw ApiException.notFound("node " + r.name() + " is not configured in any partition");
      }
      NodeStatus known = b.node(r.name());
      if (layout.isElastic(r.name()) && machineGivenUp(known)) {
        throw ApiException.conflict("node " + r.name() + " is " + known.state()
            + (known.reason() == null ? "" : " (" + known.reason() + ")")
            + ": its machine was given up, so its agent is not taken back; the node comes back with a new"
            + " machine when the fleet resumes it");
      }
      String group = r.placementGroup() == null || r.placementGroup().isBlank() ? configured.placementGroup()
          : r.placementGroup();
      NodeState state = known.state() == NodeState.DOWN || known.state().resumable() ? NodeState.IDLE : known.state();
      Node reported = new Node(r.name(), r.gpus(), r.gpuType() == null ? configured.gpuType() : r.gpuType(),
          r.cpus() > 0 ? r.cpus() : configured.cpus(), r.memoryMb() > 0 ? r.memoryMb() : configured.memoryMb(),
          r.features() == null || r.features().isEmpty() ? configured.features() : Set.copyOf(r.features()), group,
          state, known.node().zone(), known.node().capacityType()); // where the fleet launched its machine, and as what
      // A node that keeps its state (a drain) keeps its reason, and who set it when; one that comes
      // back into service has none, as a node Slurm returns to service.
      String reason = state == known.state() ? known.reason() : null;
      b.update(new NodeStatus(reported, reason, r.address(), b.now(), known.version()), true);
      if (known.state() == NodeState.DOWN && known.address() != null) {
        // Rare (not a first registration), and what a failure's log must show: a node taking work again.
        LOG.info("node {} is back: its agent at {} registered (it was DOWN: {})", r.name(), r.address(), known.reason());
      }
      for (StoredJob j : b.jobsHolding(r.name())) {
        if (j.job().state() == JobState.CONFIGURING) {
          lifecycle.nodesReady(b, j); // it waited for this node to boot, and may start now
        }
      }
      Set<String> held = new HashSet<>(r.running());
      requeueLost(b, r.name(), held);
      return reported(b, r.name(), held, strays(b.jobsHolding(r.name()), r.running()));
    });
  }

  /**
   * Whether the fleet has given up an elastic node's machine: powered down or powering down, or
   * released (DOWN, its agent's address forgotten: it did not come up in time, or its machine was
   * taken). Its agent may still run while its machine is terminated (an agent stopping, an
   * instance shutting down) and register again; taking it back would offer jobs a node whose
   * machine is about to go, and each such job's launch would fail. A node DOWN because its agent
   * stopped answering keeps the address and comes back when the agent does, as Slurm's
   * ReturnToService=1 returns a node that was DOWN for being non-responsive.
   */
  private static boolean machineGivenUp(NodeStatus n) {
    return switch (n.state()) {
      case CLOUD, POWERING_DOWN -> true;
      case DOWN -> n.address() == null;
      case POWERING_UP, IDLE, MIXED, ALLOCATED, DRAINING -> false;
    };
  }

  /**
   * Notes that the node's agent is alive, and what it holds. The heartbeat counts from its arrival
   * ({@link NodeLiveness}), not from when the writer applies it; one that has nothing to settle (it
   * reports every job the controller has running there) is answered without a write at all.
   *
   * @param address the reporting agent's own base address; null from an agent that does not say
   * @return the strays among the reported jobs (see {@link #strays}), which the agent kills
   * @throws ApiException 409 when another agent (another address) registered for the node since
   *     this one did: it is superseded and stops (killing its jobs), so that no job runs on two
   *     agents; 404 when the node is unknown or DOWN: the agent registers again
   */
  public CompletableFuture<List<String>> heartbeat(String name, String address, List<String> reported) {
    // Looked up once per job the node holds, twice a heartbeat: a node of one-GPU or shared jobs holds many.
    Set<String> held = new HashSet<>(reported);
    NodeStatus committed = writer.state().node(name);
    if (committed != null && committed.address() != null && committed.state() != NodeState.DOWN
        && (address == null || address.equals(committed.address()))) {
      Instant now = clock.instant();
      liveness.heard(name, committed.address(), now);
      // Jobs the writer has not published yet started just now: lost() spares them either way.
      List<StoredJob> holding = writer.state().holdingJobsOn(name);
      if (lost(holding, held, now).isEmpty()) {
        List<String> strays = strays(holding, reported);
        completing.reported(name, held, strays.isEmpty());
        return CompletableFuture.completedFuture(strays);
      }
    }
    return writer.write(b -> {
      NodeStatus n = b.node(name);
      if (n != null && n.address() != null && address != null && !address.equals(n.address())) {
        throw ApiException.conflict("node " + name + " is served by the agent at " + n.address()
            + ", which registered after this one (" + address + "): this agent is superseded");
      }
      if (n == null || n.address() == null || n.state() == NodeState.DOWN) {
        throw ApiException.notFound("node " + name + " is not registered");
      }
      b.update(n.heardAt(b.now()), false);
      requeueLost(b, name, held);
      return reported(b, name, held, strays(b.jobsHolding(name), reported));
    });
  }

  /**
   * The jobs an agent reports running that this controller does not run on its node: runs whose end
   * (a cancel, a requeue) was committed but whose clean-up never reached the agent, as when the
   * controller died in between. Left alone, such a run would go on beside the job's next run
   * elsewhere; the agent kills each one it is told of. A launch reaches an agent only after its job
   * is committed (and published) as running there, so a job just started is never one.
   */
  private static List<String> strays(List<StoredJob> holding, List<String> reported) {
    if (reported.isEmpty()) {
      return List.of();
    }
    Set<String> running = new HashSet<>();
    for (StoredJob j : holding) {
      running.add(j.key().toString());
    }
    List<String> strays = new ArrayList<>();
    for (String job : reported) {
      if (!running.contains(job)) {
        strays.add(job);
      }
    }
    return strays;
  }

  /** A node's report is settled: what it no longer holds of ended runs is over there ({@link CompletingRuns}). */
  private List<String> reported(Batch b, String node, Set<String> held, List<String> strays) {
    b.onCommit(() -> completing.reported(node, held, strays.isEmpty()));
    return strays;
  }

  /**
   * A running job the node's agent does not hold is lost there: the agent restarted, or the
   * launch never reached it (the controller stopped or crashed right after starting the job).
   * Slurm requeues such a job (or fails it with NODE_FAIL), and so does Squall, rather than wait
   * forever for an exit that will not come.
   */
  private void requeueLost(Batch b, String node, Set<String> held) {
    for (StoredJob j : lost(b.jobsHolding(node), held, b.now())) {
      lifecycle.nodeFailed(b, j, "node " + node + " does not have the job (its agent restarted, or the launch"
          + " never reached it)");
    }
  }

  /**
   * The jobs of {@code holding} that run but that the agent does not hold. A job started, or whose
   * launch came back, less than the node timeout before {@code now} is spared, and so is one whose
   * launch is still queued or on its way ({@link LaunchDeliveries}): the report may have been
   * written before the launch came.
   */
  private List<StoredJob> lost(List<StoredJob> holding, Set<String> held, Instant now) {
    Instant launchedBefore = now.minus(config.getNodeTimeout());
    List<StoredJob> out = new ArrayList<>();
    for (StoredJob j : holding) {
      Instant started = j.job().startTime();
      if (j.job().state() == JobState.RUNNING && !held.contains(j.key().toString())
          && started != null && started.isBefore(launchedBefore) && deliveries.backBefore(j, launchedBefore)) {
        out.add(j);
      }
    }
    return out;
  }

  /**
   * Ends the jobs whose batch scripts exited, and wakes the scheduler once that is durable: their
   * GPUs are free for the next job now, not at the next {@code scheduler-interval} tick (Slurm,
   * too, schedules when a job completes).
   */
  public CompletableFuture<Void> exits(String node, List<Exit> exits) {
    return writer.write(b -> {
      boolean ended = false;
      for (Exit e : exits) {
        StoredJob j = b.job(JobKey.parse(e.job()));
        // Late or repeated reports (the job was requeued, or the report was resent) change nothing.
        if (j != null && j.job().state().holdsResources() && batchNode(j).equals(node)) {
          lifecycle.ended(b, j, e.exitCode(), e.signal());
          ended = true;
        }
      }
      if (ended) {
        b.onCommit(scheduler::wake);
      }
      return null;
    });
  }

  /**
   * Marks nodes whose agents are silent beyond the timeout DOWN; their jobs are requeued or fail.
   * A node already DOWN may still hold a job: one whose launch got no answer, left for the node's
   * reports to settle, when another job's failed launch then marked the node DOWN. Once its agent
   * has been silent as long, nothing will report it any more: it goes the same way.
   */
  public CompletableFuture<Void> checkTimeouts() {
    return writer.write(b -> {
      Instant deadline = b.now().minus(config.getNodeTimeout());
      deliveries.forgetBackBefore(deadline);
      for (NodeStatus n : List.copyOf(writer.state().nodes())) {
        if (n.address() == null || liveness.lastHeard(n).isAfter(deadline)) {
          continue;
        }
        String why = "Not responding (no heartbeat for " + config.getNodeTimeout().toSeconds() + " s)";
        if (n.state() == NodeState.DOWN) {
          for (StoredJob j : b.jobsHolding(n.name())) {
            lifecycle.nodeFailed(b, j, "node " + n.name() + " is DOWN and " + why);
          }
          continue;
        }
        b.update(n.withState(NodeState.DOWN, why), true);
        for (StoredJob j : b.jobsHolding(n.name())) {
          lifecycle.nodeFailed(b, j, "node " + n.name() + " failed: " + why);
        }
      }
      return null;
    });
  }

  private static String batchNode(StoredJob j) {
    return j.job().allocation().isEmpty() ? "" : j.job().allocation().get(0).node();
  }
}
