package io.squall.core.schedule;

import java.util.Arrays;

/**
 * The start times a reservation search may try, as Slurm's backfill scheduler sees the future
 * (SchedMD/slurm src/plugins/sched/backfill/backfill.c, {@code _attempt_backfill}): its map of
 * when nodes free reaches {@code bf_window} ahead and no further (a job that could start only
 * later gets no reservation: "StartTime set to time after current backfill window"), and its
 * times are kept in {@code bf_resolution} steps ("the resolution of data maintained about when
 * jobs begin and end", slurm.conf(5)).
 *
 * <p>Slurm rounds the times in its map down to the step; here a time something frees is rounded
 * up instead, because a reservation is checked against the exact timeline of the cycle and must
 * not start before its nodes are free. Now is never rounded: a gang that fits now is started, not
 * reserved.
 */
final class StartGrid {
  private final long now;
  private final long horizon;
  private final long step;

  /** @param now the cycle's now, in epoch seconds */
  StartGrid(long now, Backfill backfill) {
    this.now = now;
    this.horizon = NodeTable.plus(now, backfill.window().getSeconds());
    this.step = backfill.resolution().getSeconds();
  }

  /** The latest start within the window, in epoch seconds. */
  long horizon() {
    return horizon;
  }

  /** Whether a start lies within the window. */
  boolean withinWindow(long start) {
    return start <= horizon;
  }

  /** The time on the grid at or after {@code t}. */
  long onGrid(long t) {
    if (t <= now) {
      return now;
    }
    long rest = Math.floorMod(t, step);
    return rest == 0 ? t : t + (step - rest);
  }

  /**
   * The starts worth trying after {@code first} (the first time enough of a gang's nodes can be
   * free, on the grid), earliest first: every later time something on one of its nodes frees, on
   * the grid and within the window, each once. No other time can be the first at which the gang
   * fits (but for the rounding): between two of these nothing on its nodes frees, so whatever
   * fits later in between fits at the earlier one already.
   *
   * @param nodes the gang's nodes that could hold it within the window
   */
  long[] startsAfter(long first, NodeStarts nodes, NodeTable table) {
    int capacity = 0;
    for (int k = 0; k < nodes.size(); k++) {
      capacity += table.steps(nodes.node(k));
    }
    long[] times = new long[capacity];
    int n = 0;
    for (int k = 0; k < nodes.size(); k++) {
      n = table.freeingTimes(nodes.node(k), first, horizon, times, n);
    }
    int kept = 0;
    for (int k = 0; k < n; k++) {
      long t = onGrid(times[k]);
      if (withinWindow(t)) {
        times[kept++] = t;
      }
    }
    n = kept;
    Arrays.sort(times, 0, n);
    int distinct = 0;
    for (int k = 0; k < n; k++) {
      if (distinct == 0 || times[k] != times[distinct - 1]) {
        times[distinct++] = times[k];
      }
    }
    return Arrays.copyOf(times, distinct);
  }
}
