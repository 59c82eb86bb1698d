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
  /** Resources held on one node over {@code [start, end)}. */
  record Booking(long start, long end, int gpus, int cpus, long memoryMb) {}

  /** An amount of one node's resources. */
  record Amount(int gpus, int cpus, long memoryMb) {}

  final List<Node> nodes;
  private final Map<String, Integer> index = new HashMap<>();
  final long[] freeMask;
  final int[] freeCpus;
  final long[] freeMemory;
  /** Bookings per node; null until the node has one. */
  private final List<Booking>[] bookings;
  /**
   * Whether a node has a reservation (which, unlike a running job, the free counts do not show,
   * even when it starts now): the slow path must look.
   */
  private final boolean[] hasReservation;
  private boolean anyReservation;
  private final long now;

  @SuppressWarnings("unchecked")
  NodeTable(List<Node> nodes, long now) {
    this.nodes = nodes;
    this.now = now;
    int n = nodes.size();
    freeMask = new long[n];
    freeCpus = new int[n];
    freeMemory = new long[n];
    bookings = new List[n];
    hasReservation = new boolean[n];
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

  /** Whether the shape fits free resources now, ignoring reservations. */
  boolean fitsNowIgnoringReservations(int i, GangShape s) {
    return freeGpus(i) >= needGpus(i, s) && freeCpus[i] >= needCpus(i, s) && freeMemory[i] >= needMemory(i, s);
  }

  /** Whether the shape can start now and run its whole limit without touching a reservation. */
  boolean fitsNow(int i, GangShape s) {
    if (!fitsNowIgnoringReservations(i, s)) {
      return false;
    }
    return !hasReservation[i] || fits(i, s, now);
  }

  /** Whether the shape fits on the node's timeline over {@code [start, start + limit)}. */
  boolean fits(int i, GangShape s, long start) {
    long end = plus(start, s.limitSeconds());
    Node n = nodes.get(i);
    int gpus = needGpus(i, s);
    int cpus = needCpus(i, s);
    long mem = needMemory(i, s);
    List<Booking> list = bookings[i];
    if (list == null) {
      return n.gpus() >= gpus && n.cpus() >= cpus && n.memoryMb() >= mem;
    }
    // Usage only rises at a booking's start, so checking at start and at every later booking
    // start inside the window covers the whole window.
    if (!fitsAt(i, start, gpus, cpus, mem)) {
      return false;
    }
    for (Booking b : list) {
      if (b.start() > start && b.start() < end && !fitsAt(i, b.start(), gpus, cpus, mem)) {
        return false;
      }
    }
    return true;
  }

  private boolean fitsAt(int i, long t, int gpus, int cpus, long mem) {
    Node n = nodes.get(i);
    int g = n.gpus();
    int c = n.cpus();
    long m = n.memoryMb();
    for (Booking b : bookings[i]) {
      if (b.start() <= t && t < b.end()) {
        g -= b.gpus();
        c -= b.cpus();
        m -= b.memoryMb();
      }
    }
    return g >= gpus && c >= cpus && m >= mem;
  }

  /** The node's bookings, in the order they were made (empty when none); the caller leaves them be. */
  List<Booking> bookings(int i) {
    return bookings[i] == null ? List.of() : bookings[i];
  }

  /**
   * The earliest start from now to {@code until} when the shape fits for its whole limit; -1 if
   * none. Only now and the ends of bookings can be the first such time; they are tried in order,
   * so that the first that fits ends the search (a node with many reservations has many ends).
   */
  long earliestStart(int i, GangShape s, long until) {
    if (!couldHold(i, s)) {
      return -1;
    }
    if (fits(i, s, now)) {
      return now;
    }
    List<Booking> list = bookings(i);
    long[] ends = new long[list.size()];
    int n = 0;
    for (Booking b : list) {
      if (b.end() > now && b.end() <= until) {
        ends[n++] = b.end();
      }
    }
    Arrays.sort(ends, 0, n);
    for (int k = 0; k < n; k++) {
      if ((k == 0 || ends[k] != ends[k - 1]) && fits(i, s, ends[k])) {
        return ends[k];
      }
    }
    return -1;
  }

  /**
   * Books the shape on the node from now, taking the lowest free GPU indices: {@code gpus} of
   * them, or, exclusive, all of the node's GPUs, CPUs and memory (they are the job's: they count
   * in its limits and usage, and its tasks see them all).
   */
  GpuGrant allocate(int i, GangShape s, int gpus) {
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
    book(i, new Booking(now, plus(now, s.limitSeconds()), needGpus(i, s), cpus, mem));
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
    book(i, new Booking(now, Math.max(end, now + 1), held.gpus(), held.cpus(), held.memoryMb()));
  }

  /** Reserves the shape on the node from {@code start}, for a job that has to wait. */
  void reserve(int i, GangShape s, long start) {
    book(i, new Booking(start, plus(start, s.limitSeconds()), needGpus(i, s), needCpus(i, s), needMemory(i, s)));
    hasReservation[i] = true;
    anyReservation = true;
  }

  private void book(int i, Booking b) {
    if (bookings[i] == null) {
      bookings[i] = new ArrayList<>(4);
    }
    bookings[i].add(b);
  }

  static long plus(long t, long seconds) {
    return seconds == Long.MAX_VALUE || t > Long.MAX_VALUE - seconds ? Long.MAX_VALUE : t + seconds;
  }
}
