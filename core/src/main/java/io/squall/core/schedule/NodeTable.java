package io.squall.core.schedule;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.Node;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes during one cycle: what is free now (GPU indices as a bit mask, CPUs, memory) and
 * each node's timeline of bookings (running jobs until their limit, reservations of blocked
 * jobs), so that a job can be checked against the future as well as the present. Mutable and
 * owned by one cycle; times are epoch seconds, {@link Long#MAX_VALUE} meaning never.
 */
final class NodeTable {
  /** An amount of one node's resources. */
  record Amount(int gpus, int cpus, long memoryMb) {}

  /** An advanced reservation's hold on a node over {@code [start, end)}. */
  record Window(long start, long end, String reservation, boolean maint) {}

  final List<Node> nodes;
  private final Map<String, Integer> index = new HashMap<>();
  final long[] freeMask;
  final int[] freeCpus;
  final long[] freeMemory;
  /** What each node has free from now on, bookings cut in; null until the node has one. */
  private final NodeTimeline[] timelines;
  /**
   * Whether a node has a reservation (which, unlike a running job, the free counts do not show,
   * even when it starts now): the slow path must look.
   */
  private final boolean[] hasReservation;
  private boolean anyReservation;
  /** Advanced reservations' windows on each node; null for a node without any. */
  private final List<Window>[] windows;
  private boolean anyMaint;
  private boolean anyWindow;
  /** The node of every booking so far, in order: what changed since a given point of the cycle. */
  private int[] bookedNodes = new int[256];
  private int bookedCount;
  private final long now;

  NodeTable(List<Node> nodes, long now) {
    this.nodes = nodes;
    this.now = now;
    int n = nodes.size();
    freeMask = new long[n];
    freeCpus = new int[n];
    freeMemory = new long[n];
    timelines = new NodeTimeline[n];
    hasReservation = new boolean[n];
    @SuppressWarnings("unchecked")
    List<Window>[] w = new List[n];
    windows = w;
    for (int i = 0; i < n; i++) {
      Node node = nodes.get(i);
      index.put(node.name(), i);
      freeMask[i] = node.gpus() == Node.MAX_GPUS ? -1L : (1L << node.gpus()) - 1;
      freeCpus[i] = node.cpus();
      freeMemory[i] = node.memoryMb();
    }
  }

  /** The cycle's now, in epoch seconds. */
  long now() {
    return now;
  }

  Integer indexOf(String name) {
    return index.get(name);
  }

  int size() {
    return nodes.size();
  }

  int freeGpus(int i) {
    return Long.bitCount(freeMask[i]);
  }

  /** What a shape takes of this node: the whole node when exclusive or {@code --mem=0}. */
  int needGpus(int i, GangShape s) {
    return s.exclusive() ? nodes.get(i).gpus() : s.gpusPerNode();
  }

  int needCpus(int i, GangShape s) {
    return s.exclusive() ? nodes.get(i).cpus() : s.cpusPerNode();
  }

  long needMemory(int i, GangShape s) {
    return s.exclusive() || s.memoryMb() == GangShape.WHOLE_NODE ? nodes.get(i).memoryMb() : s.memoryMb();
  }

  /** Whether the node could ever hold the shape (when empty). */
  boolean couldHold(int i, GangShape s) {
    return s.fitsEmpty(nodes.get(i));
  }

  /** Whether any node has a reservation; until one does, reservations cannot change a placement. */
  boolean hasReservations() {
    return anyReservation;
  }

  /** Adds an advanced reservation's window on the node. */
  void addWindow(int i, Window w) {
    if (windows[i] == null) {
      windows[i] = new ArrayList<>(1);
    }
    windows[i].add(w);
    anyMaint |= w.maint();
    anyWindow = true;
  }

  /** Whether any advanced reservation holds a node in this cycle. */
  boolean hasWindows() {
    return anyWindow;
  }

  /**
   * Whether a placement on the node over {@code [start, end)} stays out of every advanced
   * reservation's window its access does not let it use, and begins no sooner than it may.
   */
  boolean windowsAllow(int i, long start, long end, Access a) {
    return start >= a.notBefore() && end > start && (windows[i] == null || conflict(i, start, end, a) == null);
  }

  /** Whether a MAINT reservation holds any node. */
  boolean hasMaintWindows() {
    return anyMaint;
  }

  /** A window on the node that a placement over {@code [start, end)} would overlap and may not; null if none. */
  private Window conflict(int i, long start, long end, Access a) {
    List<Window> ws = windows[i];
    if (ws == null) {
      return null;
    }
    for (Window w : ws) {
      if (w.start() < end && start < w.end() && !a.mayOverlap(w.reservation(), w.maint())) {
        return w;
      }
    }
    return null;
  }

  /** Whether the shape fits free resources now, ignoring reservations. */
  boolean fitsNowIgnoringReservations(int i, GangShape s) {
    return freeGpus(i) >= needGpus(i, s) && freeCpus[i] >= needCpus(i, s) && freeMemory[i] >= needMemory(i, s);
  }

  /**
   * Whether the shape can start now and run its whole limit (up to its access's end) without
   * touching a reservation: a blocked job's, or an advanced reservation's window it may not use.
   */
  boolean fitsNow(int i, GangShape s, Access a) {
    if (now < a.notBefore() || !fitsNowIgnoringReservations(i, s)) {
      return false;
    }
    long end = a.end(now, s.limitSeconds());
    if (end <= now || windows[i] != null && conflict(i, now, end, a) != null) {
      return false;
    }
    return !hasReservation[i] || fits(i, s, now, a);
  }

  /** As {@link #fitsNow(int, GangShape, Access)} for a job without a reservation. */
  boolean fitsNow(int i, GangShape s) {
    return fitsNow(i, s, Access.NONE);
  }

  /** Whether the shape fits on the node's timeline over {@code [start, start + limit)}, as its access allows. */
  boolean fits(int i, GangShape s, long start, Access a) {
    long end = a.end(start, s.limitSeconds());
    if (start < a.notBefore() || end <= start || windows[i] != null && conflict(i, start, end, a) != null) {
      return false;
    }
    NodeTimeline t = timelines[i];
    if (t == null) {
      return couldHold(i, s);
    }
    return t.fits(start, end, needGpus(i, s), needCpus(i, s), needMemory(i, s));
  }

  /**
   * The earliest start from now to {@code until} when the shape fits for its whole limit (up to
   * its access's end) outside the windows it may not use; -1 if none.
   */
  long earliestStart(int i, GangShape s, long until, Access a) {
    if (!couldHold(i, s)) {
      return -1;
    }
    long from = Math.max(now, a.notBefore());
    NodeTimeline t = timelines[i];
    // Each round skips past one window: a node has few.
    for (int round = 0; round <= (windows[i] == null ? 0 : windows[i].size()); round++) {
      long end = a.end(from, s.limitSeconds());
      if (from > until || end <= from) {
        return -1;
      }
      long start = t == null ? from
          : t.earliestStart(from, until, end - from, needGpus(i, s), needCpus(i, s), needMemory(i, s));
      if (start < 0) {
        return -1;
      }
      Window w = windows[i] == null ? null : conflict(i, start, a.end(start, s.limitSeconds()), a);
      if (w == null) {
        return a.end(start, s.limitSeconds()) > start ? start : -1;
      }
      from = w.end();
    }
    return -1;
  }

  /** How many times the node's free resources change from now on: a bound for {@link #freeingTimes}. */
  int steps(int i) {
    return (timelines[i] == null ? 0 : timelines[i].steps()) + (windows[i] == null ? 0 : windows[i].size());
  }

  /**
   * Appends to {@code out} from {@code n} on the times after {@code after} and up to {@code until}
   * at which something on the node frees (an advanced reservation's window ending among them),
   * earliest first; returns the new count.
   */
  int freeingTimes(int i, long after, long until, long[] out, int n) {
    if (windows[i] != null) {
      for (Window w : windows[i]) {
        if (w.end() > after && w.end() <= until) {
          out[n++] = w.end();
        }
      }
    }
    return timelines[i] == null ? n : timelines[i].freeingTimes(after, until, out, n);
  }

  /**
   * Books the shape on the node from now, taking the lowest free GPU indices: {@code gpus} of
   * them, or, exclusive, all of the node's GPUs, CPUs and memory (they are the job's: they count
   * in its limits and usage, and its tasks see them all).
   */
  GpuGrant allocate(int i, GangShape s, int gpus) {
    return allocate(i, s, gpus, plus(now, s.limitSeconds()));
  }

  /** As {@link #allocate(int, GangShape, int)}, booked until {@code end} (a reservation's end may come first). */
  GpuGrant allocate(int i, GangShape s, int gpus, long end) {
    if (s.exclusive()) {
      gpus = freeGpus(i);
    }
    List<Integer> indices = new ArrayList<>(gpus);
    long mask = freeMask[i];
    for (int k = 0; k < gpus; k++) {
      int bit = Long.numberOfTrailingZeros(mask);
      indices.add(bit);
      mask &= mask - 1;
    }
    int cpus = needCpus(i, s);
    long mem = needMemory(i, s);
    if (s.exclusive()) {
      mask = 0;
    }
    freeMask[i] = mask;
    freeCpus[i] -= cpus;
    freeMemory[i] -= mem;
    book(i, now, Math.max(end, now + 1), needGpus(i, s), cpus, mem);
    return new GpuGrant(nodes.get(i).name(), indices, cpus, mem);
  }

  /** What a grant holds of its node (the node's index here): the whole node when exclusive. */
  Amount held(int i, GpuGrant grant, boolean exclusive) {
    Node n = nodes.get(i);
    return exclusive ? new Amount(n.gpus(), n.cpus(), n.memoryMb())
        : new Amount(grant.gpuIndices().size(), grant.cpus(), grant.memoryMb());
  }

  /** Records what a running job holds, until {@code end}. */
  void hold(int i, GpuGrant grant, boolean exclusive, long end) {
    long mask = 0;
    for (int g : grant.gpuIndices()) {
      mask |= 1L << g;
    }
    Amount held = held(i, grant, exclusive);
    freeMask[i] = exclusive ? 0 : freeMask[i] & ~mask;
    freeCpus[i] -= held.cpus();
    freeMemory[i] -= held.memoryMb();
    book(i, now, Math.max(end, now + 1), held.gpus(), held.cpus(), held.memoryMb());
  }

  /** Reserves the shape on the node from {@code start}, for a job without a reservation that has to wait. */
  void reserve(int i, GangShape s, long start) {
    reserve(i, s, start, Access.NONE);
  }

  /** Reserves the shape on the node from {@code start}, for a job that has to wait. */
  void reserve(int i, GangShape s, long start, Access a) {
    book(i, start, a.end(start, s.limitSeconds()), needGpus(i, s), needCpus(i, s), needMemory(i, s));
    hasReservation[i] = true;
    anyReservation = true;
  }

  private void book(int i, long start, long end, int gpus, int cpus, long memoryMb) {
    if (timelines[i] == null) {
      Node n = nodes.get(i);
      timelines[i] = new NodeTimeline(now, n.gpus(), n.cpus(), n.memoryMb());
    }
    timelines[i].book(start, end, gpus, cpus, memoryMb);
    if (bookedCount == bookedNodes.length) {
      bookedNodes = Arrays.copyOf(bookedNodes, bookedCount * 2);
    }
    bookedNodes[bookedCount++] = i;
  }

  /** How many bookings have been made so far in the cycle. */
  int bookedCount() {
    return bookedCount;
  }

  /** The node the {@code k}-th booking of the cycle went to. */
  int bookedNode(int k) {
    return bookedNodes[k];
  }

  static long plus(long t, long seconds) {
    return seconds == Long.MAX_VALUE || t > Long.MAX_VALUE - seconds ? Long.MAX_VALUE : t + seconds;
  }
}
