package io.squall.api.spot;

import io.micronaut.context.annotation.Context;
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
import io.squall.checkpoint.LostWork;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.NodeState;
import io.squall.core.spot.Interruption;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the controller does about interruption notices, from whichever source (node agents, the
 * cloud's event queue, reconciliation, an operator), and about users' checkpointed requeues
 * ({@code scontrol requeue}, {@code squall pause}): the node is drained, the jobs on it get
 * their checkpoint signal at once, and each is stopped and requeued whole as soon as it has
 * registered a checkpoint, or at the deadline minus the partition's margin; at the deadline the
 * machine is given up ({@link MachineRelease}). A second notice for a node already being drained
 * is counted and ignored. What each interruption cost each job (GPU time since its last
 * checkpoint) is recorded.
 *
 * <p>Runs on its own thread ({@code squall-spot}, a 250 ms tick); state changes go through the
 * state writer. Drains survive a controller restart: they are rebuilt from the interruption
 * record for the nodes still DRAINING.
 */
@Context
public final class InterruptionResponder {
  private static final Logger LOG = LoggerFactory.getLogger(InterruptionResponder.class);
  static final Duration TICK = Duration.ofMillis(250);

  /** A job on an interrupted node, waiting for its checkpoint or its deadline; as it was then. */
  private record Hit(JobKey job, int restartCount, String partition, long rowId, Instant started, int gpus,
      int earlierInterruptions) {}

  /** A node being drained. */
  private record Drain(Interruption notice, Instant since, Instant stopBy, List<Hit> hits) {}

  /** A user's checkpointed requeue ({@code scontrol requeue}, {@code squall pause}). */
  private record Pause(JobKey job, boolean hold, String by) {}

  /** A pause in progress: the job was signalled and gets until {@code stopBy} to checkpoint. */
  private record Pausing(Pause request, int restartCount, String partition, Instant since, Instant stopBy) {}

  private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "squall-spot");
    t.setDaemon(true);
    return t;
  });
  private final ConcurrentLinkedQueue<Interruption> inbox = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Pause> pauseInbox = new ConcurrentLinkedQueue<>();
  private final Map<String, Drain> drains = new TreeMap<>();
  private final Map<JobKey, Pausing> pauses = new TreeMap<>();
  private final StateWriter writer;
  private final JobLifecycle lifecycle;
  private final ClusterLayout layout;
  private final CheckpointCatalog checkpoints;
  private final InterruptionRepository interruptions;
  private final InstanceRepository instances;
  private final MachineRelease machines;
  private final DrainingJobs draining;
  private final SquallMetrics metrics;
  private final InstantSource clock;

  public InterruptionResponder(StateWriter writer, JobLifecycle lifecycle, ClusterLayout layout,
      CheckpointCatalog checkpoints, InterruptionRepository interruptions, InstanceRepository instances,
      MachineRelease machines, DrainingJobs draining, SquallMetrics metrics, InstantSource clock) {
    this.writer = writer;
    this.lifecycle = lifecycle;
    this.layout = layout;
    this.checkpoints = checkpoints;
    this.interruptions = interruptions;
    this.instances = instances;
    this.machines = machines;
    this.draining = draining;
    this.metrics = metrics;
    this.clock = clock;
    executor.execute(() -> guardedStep("restoring drains", this::restore));
    executor.scheduleWithFixedDelay(this::tick, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * After a controller restart: the drains that were under way (their nodes are still DRAINING),
   * rebuilt from the interruption record, so that their jobs are still stopped in time and their
   * machines given up. (Users' checkpointed requeues are not kept: a user asks again.)
   */
  private void restore() {
    Instant now = clock.instant();
    for (NodeStatus n : writer.state().nodes()) {
      if (n.state() != NodeState.DRAINING) {
        continue;
      }
      List<InterruptionRow> rows = interruptions.findByNodeNameOrderById(n.name());
      if (rows.isEmpty()) {
        continue;
      }
      InterruptionRow last = rows.get(rows.size() - 1);
      Interruption notice = new Interruption(n.name(), last.instanceId(), Interruption.Source.valueOf(last.source()),
          Interruption.Kind.valueOf(last.kind()), last.noticedAt(), last.deadline(), last.detail());
      List<Hit> hits = new ArrayList<>();
      Instant stopBy = now;
      for (InterruptionRow r : rows) {
        StoredJob j = r.jobKey() == null || r.handledAt() != null || !r.noticedAt().equals(last.noticedAt()) ? null
            : writer.state().job(JobKey.parse(r.jobKey()));
        if (j == null || !j.job().state().holdsResources()) {
          continue;
        }
        int earlier = earlierInterruptions(j.key(), last.noticedAt());
        hits.add(new Hit(j.key(), j.job().restartCount(), j.job().partition(), r.id(),
            j.job().startTime() != null ? j.job().startTime() : now, j.job().gpusHeld(), earlier));
        draining.add(j.key(), new DrainingJobs.Drain("node " + n.name() + " " + describe(notice), false, false,
            earlier, j.job().restartCount()));
        Instant latest = notice.deadline().minus(layout.checkpointPolicy(j.job().partition()).margin());
        stopBy = latest.isAfter(stopBy) ? latest : stopBy;
      }
      drains.put(n.name(), new Drain(notice, last.noticedAt(), stopBy, hits));
      LOG.info("node {}: drain restored after a restart ({} job(s) to stop)", n.name(), hits.size());
    }
  }

  /** Takes a notice in; it is handled on the responder's thread within a tick. Thread-safe. */
  public void submit(Interruption notice) {
    inbox.add(notice);
  }

  /**
   * A user's checkpointed requeue of a running job: it gets its checkpoint signal now and is
   * requeued (held with {@code hold}) once it has registered a checkpoint, or after the
   * partition's checkpoint-wait. A repeated request while one is in progress changes nothing.
   * Thread-safe; handled within a tick.
   */
  public void requeueCheckpointed(JobKey job, boolean hold, String by) {
    pauseInbox.add(new Pause(job, hold, by));
  }

  /** Lets the current tick finish (an interrupt could land in a database write). */
  @PreDestroy
  public void close() throws InterruptedException {
    executor.shutdown();
    if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
      executor.shutdownNow();
    }
  }

  private void tick() {
    try {
      for (Interruption n = inbox.poll(); n != null; n = inbox.poll()) {
        Interruption notice = n;
        guardedStep("notice " + notice, () -> handle(notice));
      }
      for (Pause p = pauseInbox.poll(); p != null; p = pauseInbox.poll()) {
        Pause pause = p;
        guardedStep("requeue of job " + pause.job(), () -> startPause(pause));
      }
      Instant now = clock.instant();
      // One failing drain must not hold up the others: each is tried on its own, again next tick.
      pauses.values().removeIf(p -> guarded("requeue of job " + p.request().job(), () -> progress(p, now)));
      drains.entrySet().removeIf(e -> guarded("drain of " + e.getKey(), () -> progress(e.getKey(), e.getValue(), now)));
    } catch (RuntimeException e) {
      LOG.warn("interruption handling failed; will try again", e);
    }
  }

  private static void guardedStep(String what, Runnable step) {
    guarded(what, () -> {
      step.run();
      return false;
    });
  }

  /** The step's answer, or false (not done: tried again next tick) when it failed. */
  private static boolean guarded(String what, BooleanSupplier step) {
    try {
      return step.getAsBoolean();
    } catch (RuntimeException e) {
      LOG.warn("{} failed; will try again", what, e);
      return false;
    }
  }

  // ---------------------------------------------------------------- taking a notice in

  private void handle(Interruption notice) {
    Optional<String> named = nodeOf(notice);
    if (named.isEmpty()) {
      LOG.info("interruption notice for instance {} that is no node of this cluster ({}): ignored",
          notice.instanceId(), notice.source());
      return;
    }
    String node = named.get();
    Instant now = clock.instant();
    metrics.interruption(notice.source().name(), notice.kind().name());
    Drain drain = drains.get(node);
    if (drain != null) {
      metrics.duplicateInterruption();
      if (notice.kind() == Interruption.Kind.GONE) {
        // The machine went (before its deadline, or at it): nothing is left to wait for.
        drains.put(node, new Drain(notice, drain.since(), now.isBefore(drain.stopBy()) ? now : drain.stopBy(),
            drain.hits()));
      }
      LOG.info("node {}: another notice ({} {}) while draining: handled once", node, notice.source(), notice.kind());
      return;
    }
    NodeStatus status = writer.state().node(node);
    if (status.state() == NodeState.CLOUD || status.state() == NodeState.DOWN
        || status.state() == NodeState.POWERING_DOWN) {
      metrics.duplicateInterruption();
      LOG.info("node {}: {} notice for a machine already given up: ignored", node, notice.kind());
      return;
    }
    if (notice.kind() == Interruption.Kind.REBALANCE) {
      // Advice only: the machine may well stay. The notice is kept; nothing is stopped.
      interruptions.save(row(node, notice, null).handled("advice: rebalance recommended; nothing stopped", null, now));
      LOG.info("node {}: rebalance recommendation ({}): noted", node, notice.detail());
      return;
    }
    machines.noticed(node, describe(notice));
    drains.put(node, drain(node, notice, now));
  }

  private Optional<String> nodeOf(Interruption notice) {
    if (notice.node() != null) {
      return layout.node(notice.node()) != null ? Optional.of(notice.node()) : Optional.empty();
    }
    return instances.findByInstanceId(notice.instanceId()).map(InstanceRow::nodeName);
  }

  /**
   * Drains the node and gives each job on it its checkpoint signal. A job already being drained
   * (another of its nodes, or a user's requeue) is left to that drain: signalled once, counted once.
   */
  private Drain drain(String node, Interruption notice, Instant now) {
    String what = describe(notice);
    String why = "node " + node + " " + what;
    Map<JobKey, Boolean> signalled = new LinkedHashMap<>();
    List<JobKey> elsewhere = new ArrayList<>();
    Map<JobKey, Integer> earlier = new TreeMap<>();
    for (String k : NodeOccupancy.of(writer.state()).jobsOn(node)) {
      earlier.put(JobKey.parse(k), earlierInterruptions(JobKey.parse(k), notice.noticedAt()));
    }
    writer.write(b -> {
      NodeStatus n = b.node(node);
      b.update(n.withState(NodeState.DRAINING, what), true);
      for (StoredJob j : b.jobsHolding(node)) {
        if (draining.of(j) != null) {
          elsewhere.add(j.key());
        } else if (j.job().state() == JobState.RUNNING && notice.kind() != Interruption.Kind.GONE) {
          // Known as draining before the signal can kill it: its exit then counts as interrupted.
          draining.add(j.key(), new DrainingJobs.Drain(why, false, false, earlier.getOrDefault(j.key(), 0),
              j.job().restartCount()));
          checkpointSignal(b, j, why);
          signalled.put(j.key(), true);
        } else {
          signalled.put(j.key(), false);
        }
      }
      return null;
    }).join();
    List<Hit> hits = new ArrayList<>();
    Instant stopBy = now;
    for (Map.Entry<JobKey, Boolean> e : signalled.entrySet()) {
      StoredJob j = writer.state().job(e.getKey());
      if (j == null) {
        continue;
      }
      InterruptionRow saved = interruptions.save(row(node, notice, e.getKey().toString()));
      hits.add(new Hit(e.getKey(), j.job().restartCount(), j.job().partition(), saved.id(),
          j.job().startTime() != null ? j.job().startTime() : now, j.job().gpusHeld(),
          earlier.computeIfAbsent(e.getKey(), k -> earlierInterruptions(k, notice.noticedAt()))));
      if (e.getValue()) {
        // Stop before the machine goes, leaving the margin for the stop itself; a notice shorter
        // than the margin means at once.
        Instant latest = notice.deadline().minus(layout.checkpointPolicy(j.job().partition()).margin());
        stopBy = latest.isAfter(stopBy) ? latest : stopBy;
      }
    }
    for (JobKey k : elsewhere) {
      interruptions.save(row(node, notice, k.toString()).handled("already being drained: stopped by that drain", null,
          now));
    }
    if (signalled.isEmpty() && elsewhere.isEmpty()) {
      interruptions.save(row(node, notice, null).handled("no job on the node", null, now));
    }
    LOG.warn("node {} {}: draining; {} job(s) signalled, stopped by {} at the latest", node, what, hits.size(), stopBy);
    return new Drain(notice, now, stopBy, hits);
  }

  /** Sends the job its checkpoint signal ({@link CheckpointSignal#forJob}). */
  private void checkpointSignal(Batch b, StoredJob j, String why) {
    CheckpointSignal signal = CheckpointSignal.forJob(j.request().control().signal(),
        layout.checkpointPolicy(j.job().partition()).signal());
    lifecycle.checkpointSignal(b, j, signal.name(), signal.batchOnly(), why);
  }

  /**
   * The interruptions that stopped the job before (they cost it work, so they count to
   * max-restarts): recorded with their cost, or still being handled (an earlier drain whose
   * bookkeeping lags its requeue by a tick); not the ones that found it drained already, nor the
   * notice {@code current}.
   */
  private int earlierInterruptions(JobKey job, Instant current) {
    return (int) interruptions.findByJobKeyOrderById(job.toString()).stream()
        .filter(r -> r.lostGpuSeconds() != null || r.handledAt() == null)
        .filter(r -> !r.noticedAt().equals(current)).count();
  }

  private static String describe(Interruption n) {
    String how = n.kind() == Interruption.Kind.GONE ? "lost its machine without notice"
        : "interrupted: machine goes at " + n.deadline();
    return how + " (" + n.source() + (n.detail().isEmpty() ? "" : ": " + n.detail()) + ")";
  }

  private static InterruptionRow row(String node, Interruption n, String job) {
    String detail = n.detail().length() > 2000 ? n.detail().substring(0, 2000) : n.detail();
    return new InterruptionRow(null, node, n.instanceId(), n.source().name(), n.kind().name(), n.noticedAt(),
        n.deadline(), detail, job, null, null, null);
  }

  // ---------------------------------------------------------------- waiting, stopping, giving up

  /** Stops the jobs that are ready to go; gives the machine up once all are stopped and its time has come. */
  private boolean progress(String node, Drain drain, Instant now) {
    for (Iterator<Hit> it = drain.hits().iterator(); it.hasNext(); ) {
      Hit hit = it.next();
      StoredJob j = writer.state().job(hit.job());
      Optional<Checkpoint> latest = checkpoints.latest(hit.job().toString(), hit.partition());
      if (!sameRun(j, hit.restartCount())) {
        // It ended on its own: completed, cancelled, or died of the interruption (DrainingJobs)
        // and was requeued, or ended PREEMPTED with --no-requeue.
        finish(hit, endedOnItsOwn(j, hit.restartCount()), interrupted(j, hit.restartCount())
            ? lost(hit, latest, now) : null, now);
        it.remove();
        continue;
      }
      boolean checkpointed = latest.isPresent() && latest.get().takenSince(drain.since());
      if (checkpointed || !now.isBefore(drain.stopBy())) {
        stop(node, drain, hit, latest, checkpointed, now);
        it.remove();
      }
    }
    boolean machineGone = drain.notice().kind() == Interruption.Kind.GONE || !now.isBefore(drain.notice().deadline());
    if (drain.hits().isEmpty() && machineGone) {
      machines.release(node, describe(drain.notice()));
      return true;
    }
    return false;
  }

  private void stop(String node, Drain drain, Hit hit, Optional<Checkpoint> latest, boolean checkpointed,
      Instant now) {
    String why = "node " + node + " " + describe(drain.notice())
        + (checkpointed ? "; checkpoint step " + latest.get().step() + " registered"
            : drain.notice().kind() == Interruption.Kind.GONE ? "" : "; no checkpoint by the deadline");
    CheckpointPolicy policy = layout.checkpointPolicy(hit.partition());
    StoredJob after = writer.write(b -> {
      StoredJob current = b.job(hit.job());
      if (sameRun(current, hit.restartCount())) {
        lifecycle.interrupted(b, current, why, policy, hit.earlierInterruptions());
      }
      return b.job(hit.job());
    }).join();
    if (!interrupted(after, hit.restartCount())) {
      finish(hit, endedOnItsOwn(after, hit.restartCount()), null, now); // it ended just before
      return;
    }
    double lost = lost(hit, latest, now);
    finish(hit, (checkpointed ? "checkpointed at step " + latest.get().step() : "stopped without a new checkpoint")
        + (after.job().state() == JobState.PREEMPTED ? "; ended PREEMPTED (--no-requeue)" : "; requeued"), lost, now);
    LOG.warn("job {}: stopped after the interruption of {}: {} GPU-seconds lost", hit.job(), node, lost);
  }

  /** Whether the job still runs the incarnation the notice found, and nobody is stopping it (scancel, time limit). */
  private static boolean sameRun(StoredJob j, int restartCount) {
    return j != null && j.job().state().holdsResources() && j.job().restartCount() == restartCount
        && j.ending() == null;
  }

  /** Whether that incarnation ended because of the interruption: requeued, or PREEMPTED. */
  private static boolean interrupted(StoredJob j, int restartCount) {
    return j != null && (j.job().restartCount() > restartCount || j.job().state() == JobState.PREEMPTED);
  }

  private static String endedOnItsOwn(StoredJob j, int restartCount) {
    if (j != null && j.job().restartCount() > restartCount) {
      return "exited during the drain; requeued";
    }
    if (j != null && j.job().state() == JobState.PREEMPTED) {
      return "exited during the drain; ended PREEMPTED (--no-requeue)";
    }
    return j == null ? "gone before it was stopped"
        : (j.ending() != null ? "being stopped (" + j.ending() + ")" : "ended " + j.job().state())
            + " before the drain stopped it";
  }

  /** GPU time since the run's last checkpoint (or its start): the work the interruption cost. */
  private double lost(Hit hit, Optional<Checkpoint> latest, Instant now) {
    double lost = LostWork.gpuSeconds(hit.started(), latest, now, hit.gpus());
    metrics.lostWork(lost);
    return lost;
  }

  // ---------------------------------------------------------------- users' checkpointed requeues

  private void startPause(Pause p) {
    StoredJob j = writer.state().job(p.job());
    if (pauses.containsKey(p.job()) || j == null || !j.job().state().holdsResources()) {
      return;
    }
    if (draining.of(j) != null) {
      // An interruption is already stopping it: the pause only asks that it stay held afterwards.
      if (p.hold()) {
        draining.holdAfterwards(j);
      }
      return;
    }
    String why = (p.hold() ? "paused" : "requeued") + " by " + p.by();
    Instant now = clock.instant();
    boolean signalled = writer.write(b -> {
      StoredJob current = b.job(p.job());
      if (current == null || !current.job().state().holdsResources() || current.ending() != null) {
        return false;
      }
      if (current.job().state() != JobState.RUNNING) {
        lifecycle.requeueCheckpointed(b, current, why + " (nothing ran yet)", p.hold());
        return false;
      }
      // Known as draining before the signal can kill it: its exit then counts as requeued.
      draining.add(p.job(), new DrainingJobs.Drain(why, true, p.hold(), 0, current.job().restartCount()));
      checkpointSignal(b, current, why + ": checkpoint, then requeue");
      return true;
    }).join();
    if (signalled) {
      pauses.put(p.job(), new Pausing(p, j.job().restartCount(), j.job().partition(), now,
          now.plus(layout.checkpointPolicy(j.job().partition()).checkpointWait())));
    }
  }

  /** Requeues a paused job once it checkpointed or its wait is over; true when the pause is done. */
  private boolean progress(Pausing p, Instant now) {
    StoredJob j = writer.state().job(p.request().job());
    if (!sameRun(j, p.restartCount())) {
      draining.remove(p.request().job(), p.restartCount());
      return true; // it left on its own (and was requeued by its drain), ended, or is being stopped
    }
    Optional<Checkpoint> latest = checkpoints.latest(p.request().job().toString(), p.partition());
    boolean checkpointed = latest.isPresent() && latest.get().takenSince(p.since());
    if (!checkpointed && now.isBefore(p.stopBy())) {
      return false;
    }
    String why = (p.request().hold() ? "paused" : "requeued") + " by " + p.request().by()
        + (checkpointed ? " after checkpoint step " + latest.get().step() : " (no checkpoint within checkpoint-wait)");
    writer.write(b -> {
      StoredJob current = b.job(p.request().job());
      if (sameRun(current, p.restartCount())) {
        lifecycle.requeueCheckpointed(b, current, why, p.request().hold());
      }
      return null;
    }).join();
    draining.remove(p.request().job(), p.restartCount());
    return true;
  }

  private void finish(Hit hit, String outcome, Double lost, Instant now) {
    draining.remove(hit.job(), hit.restartCount());
    interruptions.findById(hit.rowId()).ifPresent(r -> interruptions.update(r.handled(outcome, lost, now)));
  }
}
