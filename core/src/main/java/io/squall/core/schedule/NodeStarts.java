package io.squall.core.schedule;

import java.util.Arrays;

/**
 * The nodes a gang may use that could hold their share of it within the backfill window, each
 * with the earliest time it could for the whole limit, earliest first (ties by node index).
 *
 * <p>Kept for the whole cycle per shape and set of eligible nodes, and brought up to date from the
 * table's log of booked nodes before each use: a cycle only adds bookings, so only nodes booked
 * since can have changed, and their earliest start can only have moved later. A cycle's hundreds
 * of reservation searches, mostly for jobs of a few alike shapes, then cost the nodes booked
 * between them instead of a walk and a sort of every eligible node each (which made Slurm's
 * bf_max_job_test of 500 several times dearer than a depth of 100).
 *
 * <p>Each entry is one long, the start's offset from now in the high bits and the node index in
 * the low 31, so that sorting the longs sorts by start, then node. Starts lie within bf_window
 * (at most 30 days), so the offset always fits.
 */
final class NodeStarts {
  private static final int NODE_BITS = 31;
  private static final long NODE_MASK = (1L << NODE_BITS) - 1;
  private final NodeTable table;
  private final GangShape shape;
  private final Access access;
  private final long horizon;
  private long[] entries;
  private int size;
  /** How much of the table's log of booked nodes the entries reflect. */
  private int seen;

  /** Every eligible node that could hold the shape by {@code horizon}, as the table stands. */
  NodeStarts(NodeTable table, GangShape shape, int[] eligible, long horizon) {
    this(table, shape, Access.NONE, eligible, horizon);
  }

  /** Every eligible node that could hold the shape by {@code horizon} as the access allows, as the table stands. */
  NodeStarts(NodeTable table, GangShape shape, Access access, int[] eligible, long horizon) {
    this.table = table;
    this.shape = shape;
    this.access = access;
    this.horizon = horizon;
    entries = new long[eligible.length];
    for (int i : eligible) {
      add(i);
    }
    Arrays.sort(entries, 0, size);
    seen = table.bookedCount();
  }

  /** How many nodes could hold the shape within the window. */
  int size() {
    return size;
  }

  /** The {@code k}-th earliest start, in epoch seconds. */
  long start(int k) {
    return table.now() + (entries[k] >>> NODE_BITS);
  }

  /** The node of the {@code k}-th earliest start. */
  int node(int k) {
    return (int) (entries[k] & NODE_MASK);
  }

  /**
   * Brings the starts up to date with the table: the nodes booked since the last time are taken
   * out and put back in at their new earliest start, if they still have one within the window.
   * Nodes without a start stay without: theirs could only have moved later.
   *
   * @param marks all false, as long as the table; left all false
   */
  void refresh(boolean[] marks) {
    int booked = table.bookedCount();
    if (booked == seen) {
      return;
    }
    for (int k = seen; k < booked; k++) {
      marks[table.bookedNode(k)] = true;
    }
    int[] again = new int[Math.min(size, booked - seen)];
    int moved = 0;
    int kept = 0;
    for (int k = 0; k < size; k++) {
      int i = node(k);
      if (marks[i]) {
        again[moved++] = i;
      } else {
        entries[kept++] = entries[k];
      }
    }
    for (int k = seen; k < booked; k++) {
      marks[table.bookedNode(k)] = false;
    }
    seen = booked;
    long[] fresh = new long[moved];
    int n = 0;
    for (int k = 0; k < moved; k++) {
      long t = table.earliestStart(again[k], shape, horizon, access);
      if (t >= 0) {
        fresh[n++] = entry(t, again[k]);
      }
    }
    Arrays.sort(fresh, 0, n);
    // Merged from the back, in place: the entries had room for the nodes taken out.
    int a = kept - 1;
    int b = n - 1;
    for (int w = kept + n - 1; b >= 0; w--) {
      entries[w] = a >= 0 && entries[a] > fresh[b] ? entries[a--] : fresh[b--];
    }
    size = kept + n;
  }

  /** Adds the node at its earliest start, if it has one within the window (unsorted). */
  private void add(int i) {
    long t = table.earliestStart(i, shape, horizon, access);
    if (t >= 0) {
      entries[size++] = entry(t, i);
    }
  }

  private long entry(long start, int node) {
    return (start - table.now()) << NODE_BITS | node;
  }
}
