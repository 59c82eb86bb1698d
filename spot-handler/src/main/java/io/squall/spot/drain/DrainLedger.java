package io.squall.spot.drain;

import io.squall.checkpoint.Checkpoint;
import io.squall.core.model.JobKey;
import io.squall.core.model.NodeState;
import io.squall.core.spot.Interruption;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the {@link DrainBook} reads and changes. The controller backs it with its state writer,
 * checkpoint catalog and interruption records; the simulator with memory and its model of how
 * jobs checkpoint. Called from the book's one thread; a change is in effect when the method
 * returns. A method may throw a RuntimeException (a database that failed): the book then tries
 * the same step again at its next tick.
 */
public interface DrainLedger {
  /**
   * What became of a run the drain waits for.
   *
   * @param going it still holds its nodes and nothing else is stopping it (scancel, a time limit)
   * @param interrupted it ended because of the interruption: requeued, or ended PREEMPTED
   * @param outcome in words, for the record, when it is not going ("requeued", "ended COMPLETED ...")
   */
  record RunStatus(boolean going, boolean interrupted, String outcome) {}

  /** The node's state; null when it is no node of this cluster. */
  NodeState nodeState(String node);

  /** The node whose machine this instance is; empty when none is. */
  Optional<String> nodeOfInstance(String instanceId);

  /** The runs that hold the node now, in key order. */
  List<JobRun> runsOn(String node);

  /** The job's current run; empty when it holds no nodes (ended, or gone). */
  Optional<JobRun> currentRun(JobKey job);

  /** What became of that run of the job. */
  RunStatus status(JobKey job, int restartCount);

  /** The rules of the job's partition. */
  DrainRules rules(String partition);

  /**
   * The interruptions that stopped the job before (they count to max-restarts), the notice
   * noticed at {@code noticedAt} aside.
   */
  int earlierInterruptions(JobKey job, Instant noticedAt);

  /** The job's newest checkpoint, taken (its state saved) at {@link Checkpoint#registered()}. */
  Optional<Checkpoint> latestCheckpoint(JobRun run);

  /** The node takes no new work: DRAINING with the reason. */
  void drainNode(String node, String why);

  /** A spot machine is being reclaimed: its offering is short from now on (the fleet leaves it alone). */
  void offeringShort(String node, String why);

  /**
   * The run is being drained: if its batch script exits before the drain stops it, it is handled
   * as {@code mark} says, not ended.
   */
  void markDraining(JobRun run, DrainMark mark);

  /** The run is no longer being drained. */
  void unmarkDraining(JobKey job, int restartCount);

  /** Sends the run its checkpoint signal (its {@code --signal}, else its partition's). */
  void signal(JobRun run, String why);

  /**
   * Stops the run after an interruption and carries out the {@link RequeueDecision} (the gang's
   * processes are killed on every node). Does nothing when the run has ended or is being
   * stopped for another reason meanwhile.
   *
   * @param node the interrupted node
   * @param lostGpuSeconds the work the stop throws away (since the newest checkpoint)
   * @return what became of the run
   */
  RunStatus interrupt(JobRun run, String node, String why, int earlierInterruptions, double lostGpuSeconds);

  /** A user's checkpointed requeue: back to the queue (held with {@code hold}), REQUEUED in its history. */
  void requeueCheckpointed(JobRun run, String why, boolean hold);

  /**
   * A preempted run's grace is over (or it checkpointed): the gang is stopped on every node and
   * the job requeued ({@code requeue}, PREEMPTED then PENDING in its history, not counted as an
   * interruption) or ended PREEMPTED. Does nothing when the run has ended meanwhile.
   */
  void preempted(JobRun run, String why, boolean requeue);

  /** The machine's time has come and no job holds it any more: the node is given up. */
  void releaseMachine(String node, String why);

  /**
   * Records a notice for the node and job (null for the node alone).
   *
   * @param outcome how it was handled, or null while it is being handled
   * @return the record's id, for {@link #recordHandled}
   */
  long record(String node, Interruption notice, JobKey job, String outcome, Instant now);

  /** The record is handled: how, and the work lost (null when none was). */
  void recordHandled(long recordId, String outcome, Double lostGpuSeconds, Instant now);

  /** Something the operator should read (the controller logs it). */
  void note(String message);

  /** A step failed and will be tried again at the next tick (the controller logs the error). */
  void failed(String step, RuntimeException error);
}
