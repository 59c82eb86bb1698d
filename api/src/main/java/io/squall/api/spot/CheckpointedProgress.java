package io.squall.api.spot;

import io.squall.checkpoint.Checkpoint;
import io.squall.api.store.HoldingRepository;
import io.squall.api.store.HoldingRow;
import io.squall.api.store.InterruptionRepository;
import io.squall.api.store.InterruptionRow;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What the deadline rule needs of a job's past runs: how much of its work a restart would not
 * redo (the time it held nodes, run by run, up to its latest checkpoint, less one changeover per
 * run, since its nodes' boot and its restore were no progress; none without a checkpoint), and
 * how many interruptions stopped it. Read only for jobs with a deadline that wait for nodes, so
 * it costs queries only for those.
 */
@Singleton
public final class CheckpointedProgress {
  private final CheckpointCatalog catalog;
  private final HoldingRepository holdings;
  private final InterruptionRepository interruptions;

  public CheckpointedProgress(CheckpointCatalog catalog, HoldingRepository holdings,
      InterruptionRepository interruptions) {
    this.catalog = catalog;
    this.holdings = holdings;
    this.interruptions = interruptions;
  }

  /** The interruptions that stopped the job so far: what its partition's max-restarts counts. */
  public int interruptions(String jobKey) {
    return (int) interruptions.findByJobKeyOrderById(jobKey).stream().filter(InterruptionRow::stoppedJob).count();
  }

  public Duration checkpointed(String jobKey, String partition, Duration changeover) {
    // The checkpoint a restart restores from, and when it was taken.
    Instant last = catalog.latest(jobKey, partition).map(Checkpoint::registered).orElse(null);
    if (last == null) {
      return Duration.ZERO;
    }
    return heldUntil(holdings.findByJobKey(jobKey), last, changeover);
  }

  /** The union of the holds' intervals up to {@code until}, less {@code changeover} per run (interval), floored at 0. */
  static Duration heldUntil(List<HoldingRow> rows, Instant until, Duration changeover) {
    List<HoldingRow> sorted = new ArrayList<>(rows);
    sorted.sort(Comparator.comparing(HoldingRow::heldFrom));
    Duration total = Duration.ZERO;
    Instant runFrom = null;
    Instant runTo = null;
    for (HoldingRow r : sorted) {
      Instant from = r.heldFrom();
      Instant to = r.heldTo() == null || r.heldTo().isAfter(until) ? until : r.heldTo();
      if (!from.isBefore(until)) {
        break;
      }
      if (runTo != null && !from.isAfter(runTo)) {
        runTo = to.isAfter(runTo) ? to : runTo; // the same run on another node
        continue;
      }
      total = total.plus(run(runFrom, runTo, changeover));
      runFrom = from;
      runTo = to;
    }
    return total.plus(run(runFrom, runTo, changeover));
  }

  private static Duration run(Instant from, Instant to, Duration changeover) {
    if (from == null) {
      return Duration.ZERO;
    }
    Duration d = Duration.between(from, to).minus(changeover);
    return d.isNegative() ? Duration.ZERO : d;
  }
}
