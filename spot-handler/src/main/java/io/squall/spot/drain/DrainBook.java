package io.squall.spot.drain;

import io.squall.checkpoint.Checkpoint;
import io.squall.checkpoint.LostWork;
import io.squall.core.model.JobKey;
import io.squall.core.model.NodeState;
import io.squall.core.spot.Interruption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * The drains under way, one engine for the controller and the simulator. A notice drains its
 * node (no new work) and sends each running job on it its checkpoint signal; a job is stopped and
 * requeued whole ({@link DrainLedger#interrupt}, deciding with {@link RequeueDecision}) as soon as
 * it has registered a checkpoint since the notice, or at the deadline minus its partition's
 * margin; a job still waiting for its nodes to boot is stopped at once. Once no job holds the
 * node any more, the machine is given up (not kept, billed, until its deadline). A second notice for a node
 * already being drained is handled once (a GONE one ends the wait). A user's checkpointed requeue
 * ({@link #pause}) signals the job and requeues it once it checkpointed, or after its partition's
 * checkpoint-wait; so does a preemption ({@link #preempt}) within its grace time.
 *
 * <p>Not thread-safe: one thread calls every method (the controller's responder thread, or the
 * simulation loop). Time comes only from the {@code now} arguments. A step whose ledger call
 * fails is tried again at the next tick; one failing drain does not hold up the others.
 */
public final class DrainBook {
  /** What {@link #notice} did with a notice. */
  public enum Handling {
    /** It names no node of this cluster: ignored. */
    NOT_OURS,
    /** The node is being drained already, or its machine was given up already: handled once. */
    REPEATED,
    /** A rebalance recommendation: recorded, nothing stopped. */
    ADVICE,
    /** The node is being drained. */
    DRAINING
  }

  /** A job to stop after its node's interruption, being drained since its notice as {@code mark} says. */
  private record Hit(JobRun run, long recordId, DrainMark mark) {}

  /** A node being drained. */
  private static final class Drain {
    Interruption notice;
    final Instant since;
    Instant stopBy;
    final List<Hit> hits;

    Drain(Interruption notice, Instant since, Instant stopBy, List<Hit> hits) {
      this.notice = notice;
      this.since = since;
      this.stopBy = stopBy;
      this.hits = hits;
    }
  }

  /**
   * A run signalled at {@code since} that is stopped once it checkpoints, at {@code stopBy} at the
   * latest: a user's checkpointed requeue or pause, or a preemption in its grace time.
   */
  private record Stopping(JobRun run, DrainMark mark, Instant since, Instant stopBy) {}

  /**
   * A job of a drain rebuilt after a controller restart.
   *
   * @param recordId its notice's record
   */
  public record Restored(JobRun run, long recordId, int earlierInterruptions) {}

  private final DrainLedger ledger;
  private final Map<String, Drain> drains = new TreeMap<>();
  private final Map<JobKey, Stopping> stopping = new TreeMap<>();

  public DrainBook(DrainLedger ledger) {
    this.ledger = ledger;
  }

  // ---------------------------------------------------------------- notices

  /** Takes a notice in: drains its node, or says why not. */
  public Handling notice(Interruption notice, Instant now) {
    Optional<String> named = notice.node() != null
        ? Optional.of(notice.node()).filter(n -> ledger.nodeState(n) != null)
        : ledger.nodeOfInstance(notice.instanceId());
    if (named.isEmpty()) {
      ledger.note("interruption notice for " + (notice.node() != null ? "node " + notice.node()
          : "instance " + notice.instanceId()) + " that is no node of this cluster (" + notice.source() + "): ignored");
      return Handling.NOT_OURS;
    }
    String node = named.get();
    Drain drain = drains.get(node);
    if (drain != null) {
      if (notice.kind() == Interruption.Kind.GONE) {
        // The machine went (before its deadline, or at it): nothing is left to wait for.
        drain.notice = notice;
        drain.stopBy = now.isBefore(drain.stopBy) ? now : drain.stopBy;
      }
      ledger.note("node " + node + ": another notice (" + notice.source() + " " + notice.kind()
          + ") while draining: handled once");
      return Handling.REPEATED;
    }
    NodeState state = ledger.nodeState(node);
    if (state == NodeState.CLOUD || state == NodeState.DOWN || state == NodeState.POWERING_DOWN) {
      ledger.note("node " + node + ": " + notice.kind() + " notice for a machine already given up: ignored");
      return Handling.REPEATED;
    }
    if (notice.kind() == Interruption.Kind.REBALANCE) {
      // Advice only: the machine may well stay. The notice is kept; nothing is stopped.
      ledger.record(node, notice, null, "advice: rebalance recommended; nothing stopped", now);
      ledger.note("node " + node + ": rebalance recommendation (" + notice.detail() + "): noted");
      return Handling.ADVICE;
    }
    ledger.offeringShort(node, describe(notice));
    drains.put(node, drain(node, notice, now));
    return Handling.DRAINING;
  }

  /**
   * Drains the node and gives each running job on it its checkpoint signal. A job already being
   * drained (another of its nodes, or a user's requeue) is left to that drain: signalled once,
   * counted once.
   */
  private Drain drain(String node, Interruption notice, Instant now) {
    String what = describe(notice);
    String why = "node " + node + " " + what;
    ledger.drainNode(node, what); // first: from now on no new job comes to the node
    List<JobRun> runs = ledger.runsOn(node);
    List<Hit> hits = new ArrayList<>();
    Instant stopBy = now;
    for (JobRun run : runs) {
      if (isDraining(run)) {
        ledger.record(node, notice, run.job(), "already being drained: stopped by that drain", now);
        continue;
      }
      DrainMark mark = new DrainMark(why, DrainMark.Kind.INTERRUPTION, false,
          ledger.earlierInterruptions(run.job(), notice.noticedAt()));
      if (run.running() && notice.kind() != Interruption.Kind.GONE) {
        // Known as draining before the signal can kill it: its exit then counts as interrupted.
        ledger.markDraining(run, mark);
        ledger.signal(run, why);
        stopBy = latest(stopBy, notice, run);
      }
      hits.add(new Hit(run, ledger.record(node, notice, run.job(), null, now), mark));
    }
    if (runs.isEmpty()) {
      ledger.record(node, notice, null, "no job on the node", now);
    }
    ledger.note("node " + node + " " + what + ": draining; " + hits.size() + " job(s) to stop, by "
        + stopBy + " at the latest");
    return new Drain(notice, now, stopBy, hits);
  }

  /** Stop before the machine goes, leaving the margin for the stop itself; a notice shorter than the margin means at once. */
  private Instant latest(Instant stopBy, Interruption notice, JobRun run) {
    Instant latest = notice.deadline().minus(ledger.rules(run.partition()).margin());
    return latest.isAfter(stopBy) ? latest : stopBy;
  }

  /**
   * After a controller restart: a drain that was under way (its node is still DRAINING), rebuilt
   * from its record, so that its jobs are still stopped in time and its machine given up.
   */
  public void restore(String node, Interruption notice, List<Restored> jobs, Instant now) {
    String why = "node " + node + " " + describe(notice);
    List<Hit> hits = new ArrayList<>();
    Instant stopBy = now;
    for (Restored r : jobs) {
      DrainMark mark = new DrainMark(why, DrainMark.Kind.INTERRUPTION, false, r.earlierInterruptions());
      ledger.markDraining(r.run(), mark);
      hits.add(new Hit(r.run(), r.recordId(), mark));
      stopBy = latest(stopBy, notice, r.run());
    }
    drains.put(node, new Drain(notice, notice.noticedAt(), stopBy, hits));
    ledger.note("node " + node + ": drain restored after a restart (" + hits.size() + " job(s) to stop)");
  }

  // ---------------------------------------------------------------- users' checkpointed requeues

  /**
   * A user's checkpointed requeue of a running job ({@code scontrol requeue}, {@code squall
   * pause}): it gets its checkpoint signal now and is requeued (held with {@code hold}) once it
   * has registered a checkpoint, or after its partition's checkpoint-wait. A job not running yet
   * is requeued at once. A job an interruption drains already is left to that drain, held
   * afterwards if asked. A repeated request while one is under way changes nothing.
   */
  public void pause(JobKey job, boolean hold, String by, Instant now) {
    if (stopping.containsKey(job)) {
      return;
    }
    Optional<JobRun> current = ledger.currentRun(job);
    if (current.isEmpty()) {
      return;
    }
    JobRun run = current.get();
    Optional<Hit> drained = hitOf(run);
    if (drained.isPresent()) {
      if (hold) {
        ledger.markDraining(run, drained.get().mark().held());
      }
      return;
    }
    String why = (hold ? "paused" : "requeued") + " by " + by;
    if (!run.running()) {
      ledger.requeueCheckpointed(run, why + " (nothing ran yet)", hold);
      return;
    }
    signal(run, new DrainMark(why, DrainMark.Kind.USER, hold, 0), why + ": checkpoint, then requeue",
        ledger.rules(run.partition()).checkpointWait(), now);
  }

  /**
   * A running job preempted for a higher tier's job (Slurm's PreemptMode REQUEUE or CANCEL with
   * GraceTime): it gets its checkpoint signal now and is stopped as soon as it registers a
   * checkpoint, at the end of {@code grace} at the latest; then requeued ({@code requeue}) or
   * ended PREEMPTED, its history saying {@code why} (who preempted it). A job not running yet is
   * stopped at once; one a drain is stopping already is left to it.
   */
  public void preempt(JobKey job, boolean requeue, String why, Duration grace, Instant now) {
    Optional<JobRun> current = ledger.currentRun(job);
    if (stopping.containsKey(job) || current.isEmpty() || hitOf(current.get()).isPresent()) {
      return;
    }
    JobRun run = current.get();
    if (!run.running()) {
      ledger.preempted(run, why, requeue);
      return;
    }
    signal(run, new DrainMark(why, requeue ? DrainMark.Kind.PREEMPTION_REQUEUE : DrainMark.Kind.PREEMPTION_CANCEL,
        false, 0), why + ": checkpoint, then " + (requeue ? "requeue" : "end") + " within " + grace.toSeconds() + " s",
        grace, now);
  }

  /** Signals a run that is stopped once it checkpoints, or after {@code wait}. */
  private void signal(JobRun run, DrainMark mark, String signalWhy, Duration wait, Instant now) {
    // Known as draining before the signal can kill it: its exit then counts as the mark says.
    ledger.markDraining(run, mark);
    ledger.signal(run, signalWhy);
    stopping.put(run.job(), new Stopping(run, mark, now, now.plus(wait)));
  }

  // ---------------------------------------------------------------- progress

  /** Stops the jobs that are ready to go, requeues paused jobs, and gives up machines no job needs any more. */
  public void tick(Instant now) {
    stopping.values().removeIf(p -> guarded("stop of job " + p.run().job(), () -> progress(p, now)));
    drains.entrySet().removeIf(e -> guarded("drain of " + e.getKey(), () -> progress(e.getKey(), e.getValue(), now)));
  }

  /**
   * The earliest instant at which a tick decides something no outside change causes (a stop
   * time, a machine's deadline, a pause's wait); null when nothing is under way. A checkpoint
   * registered earlier also makes a tick act.
   */
  public Instant nextDecision() {
    Instant next = null;
    for (Drain d : drains.values()) {
      next = min(next, d.hits.isEmpty() ? d.notice.deadline() : d.stopBy);
    }
    for (Stopping p : stopping.values()) {
      next = min(next, p.stopBy());
    }
    return next;
  }

  /** Whether the run is being drained (a node of its interrupted, or a user's requeue). */
  private boolean isDraining(JobRun run) {
    Stopping p = stopping.get(run.job());
    return hitOf(run).isPresent() || (p != null && p.run().restartCount() == run.restartCount());
  }

  private Optional<Hit> hitOf(JobRun run) {
    for (Drain d : drains.values()) {
      for (Hit h : d.hits) {
        if (h.run().job().equals(run.job()) && h.run().restartCount() == run.restartCount()) {
          return Optional.of(h);
        }
      }
    }
    return Optional.empty();
  }

  /** Stops the jobs that are ready to go; gives the machine up once all are stopped. */
  private boolean progress(String node, Drain drain, Instant now) {
    for (Iterator<Hit> it = drain.hits.iterator(); it.hasNext(); ) {
      Hit hit = it.next();
      DrainLedger.RunStatus status = ledger.status(hit.run().job(), hit.run().restartCount());
      Optional<Checkpoint> latest = ledger.latestCheckpoint(hit.run());
      if (!status.going()) {
        // It ended on its own: completed, cancelled, or died of the interruption and was
        // requeued (or ended PREEMPTED with --no-requeue).
        finish(hit, status.outcome(), status.interrupted() ? lost(hit, latest, now) : null, now);
        it.remove();
        continue;
      }
      boolean checkpointed = latest.isPresent() && latest.get().takenSince(drain.since);
      // A run still waiting for its nodes to boot has nothing to checkpoint: it goes at once,
      // whatever the running jobs on the node wait for.
      if (checkpointed || !hit.run().running() || !now.isBefore(drain.stopBy)) {
        stop(node, drain, hit, latest, checkpointed, now);
        it.remove();
      }
    }
    boolean machineGone = drain.notice.kind() == Interruption.Kind.GONE || !now.isBefore(drain.notice.deadline());
    if (drain.hits.isEmpty() && (machineGone || ledger.runsOn(node).isEmpty())) {
      // Nothing left to save on it: given up now rather than at its deadline, so that it is not
      // billed for nothing and its node can be launched again for the requeued gang. (A job
      // another drain stops keeps it until then, or until its deadline.)
      ledger.releaseMachine(node, describe(drain.notice));
      return true;
    }
    return false;
  }

  private void stop(String node, Drain drain, Hit hit, Optional<Checkpoint> latest, boolean checkpointed,
      Instant now) {
    String how = checkpointed ? "; checkpoint step " + latest.get().step() + " registered"
        : drain.notice.kind() == Interruption.Kind.GONE ? ""
        : !hit.run().running() ? "; it had not started" : "; no checkpoint by the deadline";
    double lost = lost(hit, latest, now);
    DrainLedger.RunStatus after = ledger.interrupt(hit.run(), node, "node " + node + " " + describe(drain.notice) + how,
        hit.mark().earlierInterruptions(), lost);
    if (!after.interrupted()) {
      finish(hit, after.outcome(), null, now); // it ended just before
      return;
    }
    finish(hit, (checkpointed ? "checkpointed at step " + latest.get().step() : "stopped without a new checkpoint")
        + "; " + after.outcome(), lost, now);
    ledger.note("job " + hit.run().job() + ": stopped after the interruption of " + node + ": " + lost
        + " GPU-seconds lost");
  }

  /** Stops a signalled job once it checkpointed or its wait is over; true when done. */
  private boolean progress(Stopping p, Instant now) {
    JobRun run = p.run();
    if (!ledger.status(run.job(), run.restartCount()).going()) {
      ledger.unmarkDraining(run.job(), run.restartCount());
      return true; // it left on its own (and was handled as its mark said), ended, or is being stopped
    }
    Optional<Checkpoint> latest = ledger.latestCheckpoint(run);
    boolean checkpointed = latest.isPresent() && latest.get().takenSince(p.since());
    if (!checkpointed && now.isBefore(p.stopBy())) {
      return false;
    }
    DrainMark m = p.mark();
    switch (m.kind()) {
      case USER -> ledger.requeueCheckpointed(run, m.why() + (checkpointed ? " after checkpoint step "
          + latest.get().step() : " (no checkpoint within checkpoint-wait)"), m.hold());
      case PREEMPTION_REQUEUE, PREEMPTION_CANCEL -> ledger.preempted(run, m.why() + (checkpointed
          ? "; checkpoint step " + latest.get().step() + " registered" : "; grace time over"),
          m.kind() == DrainMark.Kind.PREEMPTION_REQUEUE);
      case INTERRUPTION -> throw new IllegalStateException("interruptions are drains, not stops");
    }
    ledger.unmarkDraining(run.job(), run.restartCount());
    return true;
  }

  /** GPU time since the run's last checkpoint (or its start): the work the interruption cost. None before it ran. */
  private static double lost(Hit hit, Optional<Checkpoint> latest, Instant now) {
    JobRun run = hit.run();
    return run.started() == null ? 0 : LostWork.gpuSeconds(run.started(), latest, now, run.gpus());
  }

  private void finish(Hit hit, String outcome, Double lost, Instant now) {
    ledger.unmarkDraining(hit.run().job(), hit.run().restartCount());
    ledger.recordHandled(hit.recordId(), outcome, lost, now);
  }

  /** The step's answer, or false (not done: tried again next tick) when the ledger failed. */
  private boolean guarded(String what, BooleanSupplier step) {
    try {
      return step.getAsBoolean();
    } catch (RuntimeException e) {
      ledger.failed(what, e);
      return false;
    }
  }

  /** The notice in words, for the node's reason and the job's history. */
  public static String describe(Interruption n) {
    String how = n.kind() == Interruption.Kind.GONE ? "lost its machine without notice"
        : "interrupted: machine goes at " + n.deadline();
    return how + " (" + n.source() + (n.detail().isEmpty() ? "" : ": " + n.detail()) + ")";
  }

  private static Instant min(Instant a, Instant b) {
    return a == null || b.isBefore(a) ? b : a;
  }
}
