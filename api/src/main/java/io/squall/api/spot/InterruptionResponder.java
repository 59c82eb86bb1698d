package io.squall.api.spot;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.squall.api.metrics.SquallMetrics;
import io.squall.api.simulate.ServiceConfig;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.api.store.InterruptionRepository;
import io.squall.api.store.InterruptionRow;
import io.squall.core.model.JobKey;
import io.squall.core.model.NodeState;
import io.squall.core.spot.Interruption;
import io.squall.spot.drain.DrainBook;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the controller does about interruption notices, from whichever source (node agents, the
 * cloud's event queue, reconciliation, an operator), about users' checkpointed requeues
 * ({@code scontrol requeue}, {@code squall pause}) and about preemptions: the drain engine
 * ({@link DrainBook}, shared with the simulator) against the {@link StoredDrainLedger}, ticked by
 * the {@code Ticker}. Notices and requests arrive from any thread into inboxes and are handled at
 * the next tick.
 *
 * <p>Drains survive a controller restart: they are rebuilt from the interruption record for the
 * nodes still DRAINING.
 */
@Context
@Requires(notEnv = ServiceConfig.ENVIRONMENT) // squall simulate reads the configuration only
public final class InterruptionResponder {
  private static final Logger LOG = LoggerFactory.getLogger(InterruptionResponder.class);

  /** What arrived from other threads, in order, to be handled at the next tick at its instant. */
  private final ConcurrentLinkedQueue<Consumer<Instant>> inbox = new ConcurrentLinkedQueue<>();
  private final StateWriter writer;
  private final InterruptionRepository interruptions;
  private final StoredDrainLedger ledger;
  private final SquallMetrics metrics;
  private final DrainBook book;
  private boolean restored;

  public InterruptionResponder(StateWriter writer, InterruptionRepository interruptions, StoredDrainLedger ledger,
      SquallMetrics metrics) {
    this.writer = writer;
    this.interruptions = interruptions;
    this.ledger = ledger;
    this.metrics = metrics;
    this.book = new DrainBook(ledger);
  }

  /**
   * After a controller restart: the drains that were under way (their nodes are still DRAINING),
   * rebuilt from the interruption record, so that their jobs are still stopped in time and their
   * machines given up. (Users' checkpointed requeues are not kept: a user asks again.)
   */
  private void restore(Instant now) {
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
      List<DrainBook.Restored> jobs = new ArrayList<>();
      for (InterruptionRow r : rows) {
        StoredJob j = r.jobKey() == null || r.handledAt() != null || !r.noticedAt().equals(last.noticedAt()) ? null
            : writer.state().job(JobKey.parse(r.jobKey()));
        if (j != null && j.job().state().holdsResources()) {
          jobs.add(new DrainBook.Restored(StoredDrainLedger.run(j), r.id(),
              ledger.earlierInterruptions(j.key(), last.noticedAt())));
        }
      }
      book.restore(n.name(), notice, jobs, now);
    }
  }

  /** Takes a notice in; it is handled on the responder's thread within a tick. Thread-safe. */
  public void submit(Interruption notice) {
    inbox.add(now -> handle(notice, now));
  }

  /**
   * A user's checkpointed requeue of a running job ({@link DrainBook#pause}). Thread-safe;
   * handled within a tick.
   */
  public void requeueCheckpointed(JobKey job, boolean hold, String by) {
    inbox.add(now -> step("requeue of job " + job, () -> book.pause(job, hold, by, now)));
  }

  /**
   * A preempted running job ({@link DrainBook#preempt}): checkpoint signal, then stopped and
   * requeued (or ended) once it checkpoints or its grace time is over. Thread-safe; handled
   * within a tick.
   */
  public void preempt(JobKey job, boolean requeue, String why, Duration grace) {
    inbox.add(now -> step("preemption of job " + job, () -> book.preempt(job, requeue, why, grace, now)));
  }

  /**
   * Restores the drains under way (the first time), takes in what arrived, then moves the drains
   * on. Called by the ticker from one thread.
   */
  public void tick(Instant now) {
    if (!restored) {
      restored = true;
      step("restoring drains", () -> restore(now));
    }
    for (Consumer<Instant> task = inbox.poll(); task != null; task = inbox.poll()) {
      task.accept(now);
    }
    step("moving the drains on", () -> book.tick(now));
  }

  private void handle(Interruption notice, Instant now) {
    step("notice " + notice, () -> {
      DrainBook.Handling h = book.notice(notice, now);
      if (h != DrainBook.Handling.NOT_OURS) {
        metrics.interruption(notice.source().name(), notice.kind().name());
      }
      if (h == DrainBook.Handling.REPEATED) {
        metrics.duplicateInterruption();
      }
    });
  }

  /** One step; its failure is logged and costs nothing else (a failed request is not kept: asked again). */
  private static void step(String what, Runnable step) {
    try {
      step.run();
    } catch (RuntimeException e) {
      LOG.warn("{} failed", what, e);
    }
  }
}
