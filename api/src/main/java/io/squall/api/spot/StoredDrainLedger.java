package io.squall.api.spot;

import io.squall.api.config.ClusterLayout;
import io.squall.api.jobs.JobLifecycle;
import io.squall.api.metrics.SquallMetrics;
import io.squall.api.state.Batch;
import io.squall.api.state.NodeOccupancy;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.api.store.InstanceRepository;
import io.squall.api.store.InstanceRow;
import io.squall.api.store.InterruptionRepository;
import io.squall.api.store.InterruptionRow;
import io.squall.checkpoint.Checkpoint;
import io.squall.checkpoint.CheckpointSignal;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.NodeState;
import io.squall.core.spot.Interruption;
import io.squall.spot.drain.DrainLedger;
import io.squall.spot.drain.DrainMark;
import io.squall.spot.drain.DrainRules;
import io.squall.spot.drain.JobRun;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's side of the drain: jobs and nodes through the state writer (each change
 * committed before the method returns), checkpoints from the catalog, notices in the
 * interruption records, draining jobs in {@link DrainingJobs} (which the job lifecycle reads
 * when a drained job's batch script exits).
 */
@Singleton
public final class StoredDrainLedger implements DrainLedger {
  private static final Logger LOG = LoggerFactory.getLogger(StoredDrainLedger.class);

  private final StateWriter writer;
  private final JobLifecycle lifecycle;
  private final ClusterLayout layout;
  private final CheckpointCatalog checkpoints;
  private final InterruptionRepository interruptions;
  private final InstanceRepository instances;
  private final MachineRelease machines;
  private final DrainingJobs draining;
  private final SquallMetrics metrics;

  public StoredDrainLedger(StateWriter writer, JobLifecycle lifecycle, ClusterLayout layout,
      CheckpointCatalog checkpoints, InterruptionRepository interruptions, InstanceRepository instances,
      MachineRelease machines, DrainingJobs draining, SquallMetrics metrics) {
    this.writer = writer;
    this.lifecycle = lifecycle;
    this.layout = layout;
    this.checkpoints = checkpoints;
    this.interruptions = interruptions;
    this.instances = instances;
    this.machines = machines;
    this.draining = draining;
    this.metrics = metrics;
  }

  @Override
  public NodeState nodeState(String node) {
    return layout.node(node) == null ? null : writer.state().node(node).state();
  }

  @Override
  public Optional<String> nodeOfInstance(String instanceId) {
    return instances.findByInstanceId(instanceId).map(InstanceRow::nodeName);
  }

  @Override
  public List<JobRun> runsOn(String node) {
    return NodeOccupancy.of(writer.state()).jobsOn(node).stream().sorted()
        .map(k -> writer.state().job(JobKey.parse(k))).filter(j -> j != null).map(StoredDrainLedger::run).toList();
  }

  static JobRun run(StoredJob j) {
    return new JobRun(j.key(), j.job().restartCount(), j.job().partition(), j.job().state() == JobState.RUNNING,
        j.job().state() == JobState.RUNNING ? j.job().startTime() : null, j.job().gpusHeld());
  }

  @Override
  public Optional<JobRun> currentRun(JobKey job) {
    StoredJob j = writer.state().job(job);
    return j != null && j.job().state().holdsResources() && j.ending() == null ? Optional.of(run(j)) : Optional.empty();
  }

  @Override
  public RunStatus status(JobKey job, int restartCount) {
    StoredJob j = writer.state().job(job);
    if (sameRun(j, restartCount)) {
      return new RunStatus(true, false, null);
    }
    if (j != null && j.job().restartCount() > restartCount) {
      return new RunStatus(false, true, "exited during the drain; requeued");
    }
    if (j != null && j.job().state() == JobState.PREEMPTED) {
      return new RunStatus(false, true, "exited during the drain; ended PREEMPTED (--no-requeue)");
    }
    return new RunStatus(false, false, j == null ? "gone before it was stopped"
        : (j.ending() != null ? "being stopped (" + j.ending() + ")" : "ended " + j.job().state())
            + " before the drain stopped it");
  }

  /** Whether the job still runs that incarnation, and nobody is stopping it (scancel, time limit). */
  private static boolean sameRun(StoredJob j, int restartCount) {
    return j != null && j.job().state().holdsResources() && j.job().restartCount() == restartCount
        && j.ending() == null;
  }

  @Override
  public DrainRules rules(String partition) {
    return layout.checkpointPolicy(partition).drainRules();
  }

  /**
   * Those that stopped it ({@link InterruptionRow#stoppedJob()}: an earlier drain's bookkeeping
   * may lag its requeue by a tick), not the current notice.
   */
  @Override
  public int earlierInterruptions(JobKey job, Instant noticedAt) {
    return (int) interruptions.findByJobKeyOrderById(job.toString()).stream()
        .filter(InterruptionRow::stoppedJob)
        .filter(r -> !r.noticedAt().equals(noticedAt)).count();
  }

  @Override
  public Optional<Checkpoint> latestCheckpoint(JobRun run) {
    return checkpoints.latest(run.job().toString(), run.partition());
  }

  @Override
  public void drainNode(String node, String why) {
    writer.write(b -> {
      NodeStatus n = b.node(node);
      b.update(n.withState(NodeState.DRAINING, why), true);
      return null;
    }).join();
  }

  @Override
  public void offeringShort(String node, String why) {
    machines.noticed(node, why);
  }

  @Override
  public void markDraining(JobRun run, DrainMark mark) {
    draining.add(run.job(), mark, run.restartCount());
  }

  @Override
  public void unmarkDraining(JobKey job, int restartCount) {
    draining.remove(job, restartCount);
  }

  /**
   * In one change of the state: {@code step} on the job, when it still runs that run and nobody
   * else is stopping it; returns the job as it is afterwards.
   */
  private StoredJob onRun(JobRun run, BiConsumer<Batch, StoredJob> step) {
    return writer.write(b -> {
      StoredJob current = b.job(run.job());
      if (sameRun(current, run.restartCount())) {
        step.accept(b, current);
      }
      return b.job(run.job());
    }).join();
  }

  @Override
  public void signal(JobRun run, String why) {
    onRun(run, (b, j) -> {
      CheckpointSignal signal = CheckpointSignal.forJob(j.request().control().signal(),
          layout.checkpointPolicy(run.partition()).signal());
      lifecycle.checkpointSignal(b, j, signal.name(), signal.batchOnly(), why);
    });
  }

  @Override
  public RunStatus interrupt(JobRun run, String node, String why, int earlierInterruptions, double lostGpuSeconds) {
    StoredJob after = onRun(run, (b, j) -> lifecycle.interrupted(b, j, why, earlierInterruptions));
    boolean requeued = after != null && after.job().restartCount() > run.restartCount();
    boolean preempted = after != null && after.job().state() == JobState.PREEMPTED;
    if (!requeued && !preempted) {
      return status(run.job(), run.restartCount());
    }
    return new RunStatus(false, true, preempted ? "ended PREEMPTED (--no-requeue)" : "requeued");
  }

  @Override
  public void requeueCheckpointed(JobRun run, String why, boolean hold) {
    onRun(run, (b, j) -> lifecycle.requeueCheckpointed(b, j, why, hold));
  }

  @Override
  public void preempted(JobRun run, String why, boolean requeue) {
    onRun(run, (b, j) -> lifecycle.preempted(b, j, why, requeue));
  }

  @Override
  public void releaseMachine(String node, String why) {
    machines.release(node, why);
  }

  @Override
  public long record(String node, Interruption n, JobKey job, String outcome, Instant now) {
    String detail = n.detail().length() > 2000 ? n.detail().substring(0, 2000) : n.detail();
    InterruptionRow row = new InterruptionRow(null, node, n.instanceId(), n.source().name(), n.kind().name(),
        n.noticedAt(), n.deadline(), detail, job == null ? null : job.toString(), null, null, null);
    return interruptions.save(outcome == null ? row : row.handled(outcome, null, now)).id();
  }

  @Override
  public void recordHandled(long recordId, String outcome, Double lostGpuSeconds, Instant now) {
    if (lostGpuSeconds != null) {
      metrics.lostWork(lostGpuSeconds);
    }
    interruptions.findById(recordId).ifPresent(r -> interruptions.update(r.handled(outcome, lostGpuSeconds, now)));
  }

  @Override
  public void note(String message) {
    LOG.info(message);
  }

  @Override
  public void failed(String step, RuntimeException error) {
    LOG.warn("{} failed; will try again", step, error);
  }
}
