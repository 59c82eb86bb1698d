package io.squall.core.schedule;

import java.util.Arrays;

/**
 * One node's free resources from now on, as a step function: the sorted times at which what is
 * free changes, and what is free from each of them until the next (the last step lasts forever).
 * A booking is cut into the steps when it is made, so whether a shape fits over a span is one walk
 * over the steps inside it, and the earliest start at which it fits is one walk over the node's
 * future, instead of summing every booking again at every time that might do (which made the
 * reservation search of a cycle grow with the square of a node's bookings). Times are epoch
 * seconds, {@link Long#MAX_VALUE} meaning never.
 */
final class NodeTimeline {
  private long[] at;
  private int[] gpus;
  private int[] cpus;
  private long[] memory;
  private int size;

  /** A node with nothing booked: all of it free from {@code now} on. */
  NodeTimeline(long now, int gpus, int cpus, long memoryMb) {
    at = new long[] {now, 0, 0, 0};
    this.gpus = new int[] {gpus, 0, 0, 0};
    this.cpus = new int[] {cpus, 0, 0, 0};
    memory = new long[] {memoryMb, 0, 0, 0};
    size = 1;
  }

  /** Takes the amounts over {@code [start, end)}; {@code start} is now or later. */
  void book(long start, long end, int g, int c, long m) {
    int from = stepBeginningAt(start);
    int to = end == Long.MAX_VALUE ? size : stepBeginningAt(end);
    for (int k = from; k < to; k++) {
      gpus[k] -= g;
      cpus[k] -= c;
      memory[k] -= m;
    }
  }

  /** Whether the amounts are free over the whole of {@code [start, end)}, and at {@code start} at least. */
  boolean fits(long start, long end, int g, int c, long m) {
    for (int k = stepAt(start); k < size && (at[k] <= start || at[k] < end); k++) {
      if (!room(k, g, c, m)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The earliest start from {@code from} to {@code until} at which the amounts are free for
   * {@code seconds}; -1 if none. One walk: a step without room rules out every start up to its
   * end, so the next start worth trying is the next step with room.
   */
  long earliestStart(long from, long until, long seconds, int g, int c, long m) {
    long start = from;
    for (int k = stepAt(from); k < size && (at[k] <= start || at[k] < NodeTable.plus(start, seconds)); k++) {
      if (room(k, g, c, m)) {
        continue;
      }
      do {
        k++;
      } while (k < size && !room(k, g, c, m));
      if (k == size || at[k] > until) {
        return -1;
      }
      start = at[k];
    }
    return start;
  }

  /**
   * Appends to {@code out} (from {@code n} on) the times after {@code after} and up to
   * {@code until} at which something on the node frees, earliest first; returns the new count.
   * Only at those can a shape fit that did not fit just before.
   */
  int freeingTimes(long after, long until, long[] out, int n) {
    for (int k = stepAt(after) + 1; k < size && at[k] <= until; k++) {
      if (gpus[k] > gpus[k - 1] || cpus[k] > cpus[k - 1] || memory[k] > memory[k - 1]) {
        out[n++] = at[k];
      }
    }
    return n;
  }

  /** How many times this node's free resources change: a bound for {@link #freeingTimes}. */
  int steps() {
    return size;
  }

  private boolean room(int k, int g, int c, long m) {
    return gpus[k] >= g && cpus[k] >= c && memory[k] >= m;
  }

  /** The step that {@code t} lies in ({@code t} is now or later). */
  private int stepAt(long t) {
    if (size == 1 || t < at[1]) {
      return 0; // most asks are for now
    }
    int k = Arrays.binarySearch(at, 0, size, t);
    return k >= 0 ? k : -k - 2;
  }

  /** The step beginning at {@code t}, split off the one it lies in if none begins there. */
  private int stepBeginningAt(long t) {
    int k = stepAt(t);
    if (at[k] == t) {
      return k;
    }
    if (size == at.length) {
      int grown = size * 2;
      at = Arrays.copyOf(at, grown);
      gpus = Arrays.copyOf(gpus, grown);
      cpus = Arrays.copyOf(cpus, grown);
      memory = Arrays.copyOf(memory, grown);
    }
    int next = k + 1;
    System.arraycopy(at, next, at, next + 1, size - next);
    System.arraycopy(gpus, next, gpus, next + 1, size - next);
    System.arraycopy(cpus, next, cpus, next + 1, size - next);
    System.arraycopy(memory, next, memory, next + 1, size - next);
    at[next] = t;
    gpus[next] = gpus[k];
    cpus[next] = cpus[k];
    memory[next] = memory[k];
    size++;
    return next;
  }
}
