package io.squall.spot.drain;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.checkpoint.Checkpoint;
import io.squall.core.model.JobKey;
import io.squall.core.model.NodeState;
import io.squall.core.spot.Interruption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The drain engine against a ledger in memory that logs what it is told. */
class DrainBookTest {
  private static final Instant T0 = Instant.parse("2026-11-25T08:00:00Z");
  private static final DrainRules RULES = new DrainRules(Duration.ofSeconds(10), 2, Duration.ofSeconds(30),
      Duration.ofMinutes(2));
  private static final JobKey J1 = JobKey.of(1);
  private static final JobKey J2 = JobKey.of(2);

  private static final class Ledger implements DrainLedger {
    final Map<String, NodeState> nodes = new TreeMap<>();
    final Map<String, List<JobRun>> on = new TreeMap<>();
    final Map<JobKey, JobRun> runs = new TreeMap<>();
    final Map<JobKey, Checkpoint> checkpoints = new TreeMap<>();
    final Map<JobKey, String> draining = new TreeMap<>();
    final Map<Long, String> records = new TreeMap<>();
    final Map<Long, Double> lost = new TreeMap<>();
    final List<String> log = new ArrayList<>();
    int failures;

    void place(JobRun run, String... nodeNames) {
      runs.put(run.job(), run);
      for (String n : nodeNames) {
        nodes.putIfAbsent(n, NodeState.ALLOCATED);
        on.computeIfAbsent(n, k -> new ArrayList<>()).add(run);
      }
    }

    void end(JobKey job) {
      runs.remove(job);
      on.values().forEach(l -> l.removeIf(r -> r.job().equals(job)));
    }

    @Override
    public NodeState nodeState(String node) {
      return nodes.get(node);
    }

    @Override
    public Optional<String> nodeOfInstance(String instanceId) {
      return instanceId.equals("i-1") ? Optional.of("n1") : Optional.empty();
    }

    @Override
    public List<JobRun> runsOn(String node) {
      return List.copyOf(on.getOrDefault(node, List.of()));
    }

    @Override
    public Optional<JobRun> currentRun(JobKey job) {
      return Optional.ofNullable(runs.get(job));
    }

    @Override
    public RunStatus status(JobKey job, int restartCount) {
      if (failures > 0) {
        failures--;
        throw new IllegalStateException("database down");
      }
      JobRun r = runs.get(job);
      if (r != null && r.restartCount() == restartCount) {
        return new RunStatus(true, false, null);
      }
      return r != null ? new RunStatus(false, true, "exited during the drain; requeued")
          : new RunStatus(false, false, "ended COMPLETED before the drain stopped it");
    }

    @Override
    public DrainRules rules(String partition) {
      return RULES;
    }

    @Override
    public int earlierInterruptions(JobKey job, Instant noticedAt) {
      return 0;
    }

    @Override
    public Optional<Checkpoint> latestCheckpoint(JobRun run) {
      return Optional.ofNullable(checkpoints.get(run.job()));
    }

    @Override
    public void drainNode(String node, String why) {
      nodes.put(node, NodeState.DRAINING);
      log.add("drain " + node);
    }

    @Override
    public void offeringShort(String node, String why) {
      log.add("short " + node);
    }

    @Override
    public void markDraining(JobRun run, DrainMark mark) {
      draining.put(run.job(), mark.kind().name().toLowerCase(java.util.Locale.ROOT) + (mark.hold() ? ", hold" : ""));
    }

    @Override
    public void unmarkDraining(JobKey job, int restartCount) {
      draining.remove(job);
    }

    @Override
    public void signal(JobRun run, String why) {
      log.add("signal " + run.job());
    }

    @Override
    public RunStatus interrupt(JobRun run, String node, String why, int earlierInterruptions, double lostGpuSeconds) {
      log.add("interrupt " + run.job() + ": " + why);
      runs.put(run.job(), new JobRun(run.job(), run.restartCount() + 1, run.partition(), false, null, 0));
      on.values().forEach(l -> l.removeIf(r -> r.job().equals(run.job())));
      return new RunStatus(false, true, "requeued");
    }

    @Override
    public void requeueCheckpointed(JobRun run, String why, boolean hold) {
      log.add("requeue " + run.job() + ": " + why + (hold ? " (held)" : ""));
      end(run.job());
    }

    @Override
    public void preempted(JobRun run, String why, boolean requeue) {
      log.add((requeue ? "preempt-requeue " : "preempt-cancel ") + run.job() + ": " + why);
      end(run.job());
    }

    @Override
    public void releaseMachine(String node, String why) {
      nodes.put(node, NodeState.DOWN);
      log.add("release " + node);
    }

    @Override
    public long record(String node, Interruption notice, JobKey job, String outcome, Instant now) {
      long id = records.size() + 1;
      records.put(id, node + " " + job + ": " + outcome);
      return id;
    }

    @Override
    public void recordHandled(long recordId, String outcome, Double lostGpuSeconds, Instant now) {
      records.put(recordId, records.get(recordId).replace(": null", ": " + outcome));
      if (lostGpuSeconds != null) {
        lost.put(recordId, lostGpuSeconds);
      }
    }

    @Override
    public void note(String message) {}

    @Override
    public void failed(String step, RuntimeException error) {
      log.add("failed " + step + ": " + error.getMessage());
    }
  }

  private final Ledger ledger = new Ledger();
  private final DrainBook book = new DrainBook(ledger);

  private static Interruption notice(String node, Interruption.Kind kind, Instant at, Duration notice) {
    return new Interruption(node, null, Interruption.Source.AWS_METADATA, kind, at, at.plus(notice), "test");
  }

  private static JobRun running(JobKey job, int gpus, Instant started) {
    return new JobRun(job, 0, "gpu", true, started, gpus);
  }

  @Test
  void aRunningJobIsSignalledAndStoppedOnceItCheckpointsThenItsMachineIsGivenUp() {
    ledger.place(running(J1, 8, T0.minusSeconds(600)), "n1", "n2");
    assertThat(book.notice(notice("n1", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(120)), T0))
        .isEqualTo(DrainBook.Handling.DRAINING);
    assertThat(ledger.log).containsExactly("short n1", "drain n1", "signal 1");
    assertThat(ledger.draining).containsEntry(J1, "interruption");
    assertThat(book.nextDecision()).isEqualTo(T0.plusSeconds(110));

    book.tick(T0.plusSeconds(20));
    assertThat(ledger.log).hasSize(3); // no checkpoint yet, time left
    ledger.checkpoints.put(J1, new Checkpoint(7, "/ckpt/7", T0.plusSeconds(5)));
    book.tick(T0.plusSeconds(30));
    assertThat(ledger.log.get(3)).startsWith("interrupt 1: node n1 interrupted").endsWith("; checkpoint step 7 registered");
    assertThat(ledger.records.get(1L)).isEqualTo("n1 1: checkpointed at step 7; requeued");
    assertThat(ledger.lost.get(1L)).isEqualTo(25.0 * 8); // from the checkpoint's state to the stop
    assertThat(ledger.draining).isEmpty();
    // No job left on it: the machine is given up now, not billed until its deadline.
    assertThat(ledger.log).last().isEqualTo("release n1");
    assertThat(book.nextDecision()).isNull();
  }

  @Test
  void aMachineAJobDrainedElsewhereStillHoldsIsGivenUpAtItsDeadline() {
    ledger.place(running(J1, 16, T0.minusSeconds(100)), "n1", "n2");
    book.notice(notice("n1", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(300)), T0);
    book.notice(notice("n2", Interruption.Kind.TERMINATION, T0.plusSeconds(1), Duration.ofSeconds(120)),
        T0.plusSeconds(1));
    book.tick(T0.plusSeconds(2));
    assertThat(ledger.log).doesNotContain("release n2"); // job 1 still runs on it, stopped by n1's drain
    assertThat(book.nextDecision()).isEqualTo(T0.plusSeconds(121));
    book.tick(T0.plusSeconds(121));
    assertThat(ledger.log).contains("release n2");
  }

  @Test
  void withoutACheckpointTheJobIsStoppedAtTheDeadlineLessTheMarginAndItsWholeRunIsLost() {
    ledger.place(running(J1, 2, T0.minusSeconds(100)), "n1");
    book.notice(notice("n1", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(120)), T0);
    book.tick(T0.plusSeconds(109));
    assertThat(ledger.log).noneMatch(l -> l.startsWith("interrupt"));
    book.tick(T0.plusSeconds(110));
    assertThat(ledger.log).anyMatch(l -> l.startsWith("interrupt 1") && l.endsWith("; no checkpoint by the deadline"));
    assertThat(ledger.lost.get(1L)).isEqualTo(210.0 * 2);
    assertThat(ledger.records.get(1L)).isEqualTo("n1 1: stopped without a new checkpoint; requeued");
  }

  /** A running job's wait for its checkpoint does not keep a booting gang on the node waiting too. */
  @Test
  void aJobStillWaitingForItsNodesGoesAtOnceThoughARunningJobOnTheNodeWaits() {
    ledger.place(running(J1, 4, T0.minusSeconds(100)), "n1");
    ledger.place(new JobRun(J2, 0, "gpu", false, null, 4), "n1", "n2");
    book.notice(notice("n1", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(120)), T0);
    book.tick(T0);
    assertThat(ledger.log).anyMatch(l -> l.startsWith("interrupt 2") && l.endsWith("; it had not started"));
    assertThat(ledger.log).noneMatch(l -> l.startsWith("interrupt 1"));
  }

  @Test
  void aJobStillWaitingForItsNodesIsStoppedAtOnceWithoutASignalAndNothingLost() {
    ledger.place(new JobRun(J1, 0, "gpu", false, null, 8), "n1");
    book.notice(notice("n1", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(120)), T0);
    book.tick(T0);
    assertThat(ledger.log).noneMatch(l -> l.startsWith("signal"));
    assertThat(ledger.log).anyMatch(l -> l.startsWith("interrupt 1") && l.endsWith("; it had not started"));
    assertThat(ledger.lost.get(1L)).isZero();
  }

  @Test
  void aSecondNoticeIsHandledOnceAndAGoneOneEndsTheWait() {
    ledger.place(running(J1, 8, T0.minusSeconds(100)), "n1");
    book.notice(notice("n1", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(120)), T0);
    assertThat(book.notice(notice("n1", Interruption.Kind.TERMINATION, T0.plusSeconds(1), Duration.ofSeconds(120)),
        T0.plusSeconds(1))).isEqualTo(DrainBook.Handling.REPEATED);
    assertThat(ledger.log).filteredOn(l -> l.startsWith("signal")).hasSize(1);
    book.notice(notice("n1", Interruption.Kind.GONE, T0.plusSeconds(5), Duration.ZERO), T0.plusSeconds(5));
    book.tick(T0.plusSeconds(5));
    assertThat(ledger.log).contains("release n1");
    assertThat(ledger.log).anyMatch(l -> l.startsWith("interrupt 1"));
  }

  @Test
  void noticesForMachinesGivenUpOrNotOursOrMereAdviceStopNothing() {
    ledger.place(running(J1, 8, T0), "n1");
    ledger.nodes.put("n2", NodeState.DOWN);
    assertThat(book.notice(notice("n2", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(120)), T0))
        .isEqualTo(DrainBook.Handling.REPEATED);
    assertThat(book.notice(notice("n9", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(120)), T0))
        .isEqualTo(DrainBook.Handling.NOT_OURS);
    assertThat(book.notice(new Interruption(null, "i-404", Interruption.Source.AWS_EVENTS,
        Interruption.Kind.TERMINATION, T0, T0.plusSeconds(120), ""), T0)).isEqualTo(DrainBook.Handling.NOT_OURS);
    assertThat(book.notice(notice("n1", Interruption.Kind.REBALANCE, T0, Duration.ofSeconds(120)), T0))
        .isEqualTo(DrainBook.Handling.ADVICE);
    assertThat(ledger.log).isEmpty();
    assertThat(ledger.records.values()).containsExactly("n1 null: advice: rebalance recommended; nothing stopped");
  }

  @Test
  void aCloudEventNamesTheInstanceAndFindsItsNode() {
    ledger.place(running(J1, 8, T0), "n1");
    assertThat(book.notice(new Interruption(null, "i-1", Interruption.Source.AWS_EVENTS,
        Interruption.Kind.TERMINATION, T0, T0.plusSeconds(120), ""), T0)).isEqualTo(DrainBook.Handling.DRAINING);
    assertThat(ledger.nodes).containsEntry("n1", NodeState.DRAINING);
  }

  @Test
  void aGangHitOnTwoNodesIsSignalledAndStoppedOnce() {
    ledger.place(running(J1, 16, T0.minusSeconds(100)), "n1", "n2");
    book.notice(notice("n1", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(120)), T0);
    book.notice(notice("n2", Interruption.Kind.TERMINATION, T0.plusSeconds(3), Duration.ofSeconds(120)),
        T0.plusSeconds(3));
    assertThat(ledger.log).filteredOn(l -> l.startsWith("signal")).hasSize(1);
    assertThat(ledger.records.values()).contains("n2 1: already being drained: stopped by that drain");
    book.tick(T0.plusSeconds(123));
    assertThat(ledger.log).filteredOn(l -> l.startsWith("interrupt")).hasSize(1);
    assertThat(ledger.log).contains("release n1", "release n2");
  }

  @Test
  void aJobThatEndsDuringTheDrainIsRecordedAsSuchWithNothingLost() {
    ledger.place(running(J1, 8, T0.minusSeconds(100)), "n1");
    book.notice(notice("n1", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(120)), T0);
    ledger.end(J1);
    book.tick(T0.plusSeconds(1));
    assertThat(ledger.records.get(1L)).isEqualTo("n1 1: ended COMPLETED before the drain stopped it");
    assertThat(ledger.lost).isEmpty();
    assertThat(ledger.log).noneMatch(l -> l.startsWith("interrupt"));
  }

  @Test
  void aPausedJobIsSignalledAndRequeuedHeldOnceItCheckpoints() {
    ledger.place(running(J1, 8, T0.minusSeconds(100)), "n1");
    book.pause(J1, true, "alice", T0);
    book.pause(J1, true, "alice", T0); // asked twice: one pause
    assertThat(ledger.log).containsExactly("signal 1");
    assertThat(ledger.draining).containsEntry(J1, "user, hold");
    book.tick(T0.plusSeconds(10));
    assertThat(ledger.log).hasSize(1);
    ledger.checkpoints.put(J1, new Checkpoint(3, "/c/3", T0.plusSeconds(11)));
    book.tick(T0.plusSeconds(12));
    assertThat(ledger.log).last().isEqualTo("requeue 1: paused by alice after checkpoint step 3 (held)");
    assertThat(ledger.draining).isEmpty();
  }

  @Test
  void aPauseWithoutACheckpointRequeuesAfterTheCheckpointWaitAndAJobNotRunningAtOnce() {
    ledger.place(running(J1, 8, T0), "n1");
    ledger.place(new JobRun(J2, 0, "gpu", false, null, 8), "n2");
    book.pause(J1, false, "bob", T0);
    book.pause(J2, false, "bob", T0);
    assertThat(ledger.log).contains("requeue 2: requeued by bob (nothing ran yet)");
    book.tick(T0.plus(RULES.checkpointWait()).minusMillis(1));
    assertThat(ledger.log).noneMatch(l -> l.startsWith("requeue 1"));
    book.tick(T0.plus(RULES.checkpointWait()));
    assertThat(ledger.log).contains("requeue 1: requeued by bob (no checkpoint within checkpoint-wait)");
  }

  @Test
  void pausingAJobAnInterruptionDrainsOnlyAsksThatItStayHeld() {
    ledger.place(running(J1, 8, T0), "n1");
    book.notice(notice("n1", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(120)), T0);
    book.pause(J1, true, "alice", T0.plusSeconds(1));
    assertThat(ledger.log).filteredOn(l -> l.startsWith("signal")).hasSize(1);
    assertThat(ledger.draining).containsEntry(J1, "interruption, hold");
  }

  @Test
  void aFailingStepIsTriedAgainAtTheNextTickAndHoldsUpNoOtherDrain() {
    ledger.place(running(J1, 8, T0), "n1");
    ledger.nodes.put("n2", NodeState.IDLE);
    book.notice(notice("n1", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(20)), T0);
    book.notice(notice("n2", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(20)), T0);
    ledger.failures = 1;
    book.tick(T0.plusSeconds(20));
    assertThat(ledger.log).contains("failed drain of n1: database down", "release n2");
    assertThat(ledger.log).noneMatch(l -> l.startsWith("interrupt"));
    book.tick(T0.plusSeconds(21));
    assertThat(ledger.log).anyMatch(l -> l.startsWith("interrupt 1"));
    assertThat(ledger.log).contains("release n1");
  }

  @Test
  void theRequeueDecisionFollowsNoRequeueMaxRestartsBackoffAndPauses() {
    assertThat(RequeueDecision.afterInterruption(true, 0, false, RULES, T0).outcome())
        .isEqualTo(RequeueDecision.Outcome.END);
    RequeueDecision first = RequeueDecision.afterInterruption(false, 0, false, RULES, T0);
    assertThat(first.outcome()).isEqualTo(RequeueDecision.Outcome.REQUEUE);
    assertThat(first.notBefore()).isNull();
    assertThat(RequeueDecision.afterInterruption(false, 1, false, RULES, T0).notBefore())
        .isEqualTo(T0.plusSeconds(30));
    RequeueDecision third = RequeueDecision.afterInterruption(false, 2, false, RULES, T0);
    assertThat(third.outcome()).isEqualTo(RequeueDecision.Outcome.HOLD);
    assertThat(third.pastMaxRestarts(RULES)).isTrue();
    RequeueDecision paused = RequeueDecision.afterInterruption(false, 0, true, RULES, T0);
    assertThat(paused.outcome()).isEqualTo(RequeueDecision.Outcome.HOLD);
    assertThat(paused.pastMaxRestarts(RULES)).isFalse();
  }

  @Test
  void aPreemptedJobIsSignalledAndRequeuedOnceItCheckpointsWithinItsGraceTime() {
    ledger.place(running(J1, 8, T0.minusSeconds(100)), "n1");
    book.preempt(J1, true, "preempted by job 9", Duration.ofSeconds(60), T0);
    assertThat(ledger.log).containsExactly("signal 1");
    assertThat(ledger.draining).containsEntry(J1, "preemption_requeue");
    assertThat(book.nextDecision()).isEqualTo(T0.plusSeconds(60));
    book.tick(T0.plusSeconds(5));
    assertThat(ledger.log).hasSize(1);
    ledger.checkpoints.put(J1, new Checkpoint(4, "/c/4", T0.plusSeconds(6)));
    book.tick(T0.plusSeconds(7));
    assertThat(ledger.log).last().isEqualTo("preempt-requeue 1: preempted by job 9; checkpoint step 4 registered");
    assertThat(ledger.draining).isEmpty();
  }

  @Test
  void aPreemptedJobWithoutACheckpointEndsAtTheEndOfItsGraceTimeAndOneNotRunningAtOnce() {
    ledger.place(running(J1, 8, T0), "n1");
    ledger.place(new JobRun(J2, 0, "gpu", false, null, 8), "n2");
    book.preempt(J1, false, "preempted by job 9", Duration.ofSeconds(60), T0);
    book.preempt(J2, true, "preempted by job 9", Duration.ofSeconds(60), T0);
    assertThat(ledger.log).contains("preempt-requeue 2: preempted by job 9");
    book.tick(T0.plusSeconds(59));
    assertThat(ledger.log).noneMatch(l -> l.startsWith("preempt-cancel"));
    book.tick(T0.plusSeconds(60));
    assertThat(ledger.log).contains("preempt-cancel 1: preempted by job 9; grace time over");
  }

  @Test
  void aJobAnInterruptionDrainsIsLeftToThatDrainWhenPreempted() {
    ledger.place(running(J1, 8, T0), "n1");
    book.notice(notice("n1", Interruption.Kind.TERMINATION, T0, Duration.ofSeconds(120)), T0);
    book.preempt(J1, true, "preempted by job 9", Duration.ofSeconds(60), T0.plusSeconds(1));
    assertThat(ledger.log).filteredOn(l -> l.startsWith("signal")).hasSize(1);
    assertThat(ledger.draining).containsEntry(J1, "interruption");
  }
}
