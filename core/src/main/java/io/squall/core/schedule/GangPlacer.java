package io.squall.core.schedule;

import io.squall.core.sbatch.Constraint;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Chooses nodes for a gang: all of them or none, on one placement group when one has room
 * (the fullest group that still fits, to keep large groups free for large gangs), else on the
 * fewest groups. Single-node jobs go where the fewest GPUs stay free (best fit), so that small
 * jobs pack and whole nodes stay available for gangs. A gang's nodes whose machines have a zone
 * share it (powered-down nodes have none: the fleet launches them in the gang's zone).
 */
final class GangPlacer {
  private final NodeTable table;
  private final int[] groupOf;
  private final int groupCount;
  private final StartGrid grid;
  /**
   * Earliest starts by shape and eligible nodes, kept for the cycle. The eligible arrays are the
   * cycle's own, one per set of placement rules, so they are compared as the same array.
   */
  private final Map<StartsKey, NodeStarts> startsCache = new HashMap<>();
  /** Scratch for {@link NodeStarts#refresh}, all false between uses. */
  private final boolean[] marks;

  /** @param groupOf the placement group index of each node of the table */
  GangPlacer(NodeTable table, int[] groupOf, int groupCount, Backfill backfill) {
    this.table = table;
    this.groupOf = groupOf;
    this.groupCount = groupCount;
    this.grid = new StartGrid(table.now(), backfill);
    this.marks = new boolean[table.size()];
  }

  private record StartsKey(GangShape shape, int[] eligible, Access access) {}

  /**
   * Where a gang may go: statically eligible nodes (grouped), the nodes it must include, count
   * rules, and which advanced reservations' windows it may use.
   */
  record Request(GangShape shape, int[] eligible, int[] required, List<Constraint.Feature> counts, int maxGroups,
      Access access) {
    Request withAccess(Access a) {
      return new Request(shape, eligible, required, counts, maxGroups, a);
    }
  }

  /** A reservation: the start and the nodes held for the gang from then. */
  record Reservation(long start, int[] nodes) {}

  /**
   * @param ignoreReservations true only to explain a failure (Priority rather than Resources)
   * @return the chosen node indices, or null when the gang cannot start now
   */
  int[] placeNow(Request r, boolean ignoreReservations) {
    GangShape s = r.shape();
    for (int i : r.required()) {
      if (!fits(i, s, r.access(), ignoreReservations)) {
        return null;
      }
    }
    if (s.nodes() == 1 && r.required().length == 0 && r.counts().isEmpty()) {
      return bestSingle(r, ignoreReservations);
    }
    int[] perGroup = new int[groupCount];
    List<Integer> fitting = new ArrayList<>();
    for (int i : r.eligible()) {
      if (fits(i, s, r.access(), ignoreReservations)) {
        fitting.add(i);
        perGroup[groupOf[i]]++;
      }
    }
    return choose(r, fitting, perGroup);
  }

  private boolean fits(int i, GangShape s, Access a, boolean ignoreReservations) {
    return ignoreReservations ? table.fitsNowIgnoringReservations(i, s) : table.fitsNow(i, s, a);
  }

  private int[] bestSingle(Request r, boolean ignoreReservations) {
    GangShape s = r.shape();
    int best = -1;
    int bestSpare = Integer.MAX_VALUE;
    for (int i : r.eligible()) {
      int spare = table.freeGpus(i) - s.gpusPerNode();
      if (spare < 0 || spare >= bestSpare || !fits(i, s, r.access(), ignoreReservations)) {
        continue;
      }
      best = i;
      bestSpare = spare;
      if (spare == 0) {
        break;
      }
    }
    return best < 0 ? null : new int[] {best};
  }

  /** Picks N nodes among those that fit: required ones, then one group if possible, else fewest groups. */
  private int[] choose(Request r, List<Integer> fitting, int[] perGroup) {
    int n = r.shape().nodes();
    if (fitting.size() < n) {
      return null;
    }
    List<Integer> chosen = new ArrayList<>();
    for (int i : r.required()) {
      if (!fitting.contains(i)) {
        return null; // a required node must be eligible and fit like any other
      }
      chosen.add(i);
    }
    Set<Integer> required = Set.copyOf(chosen);
    int preferredGroup = r.required().length > 0 ? groupOf[r.required()[0]] : bestGroup(perGroup, n);
    List<Integer> order = new ArrayList<>();
    if (preferredGroup >= 0) {
      fitting.stream().filter(i -> groupOf[i] == preferredGroup).forEach(order::add);
    }
    if (preferredGroup < 0 || order.size() < n) {
      // Span groups, largest first: that uses the fewest groups.
      Integer[] groups = new Integer[groupCount];
      for (int g = 0; g < groupCount; g++) {
        groups[g] = g;
      }
      Arrays.sort(groups, Comparator.comparingInt((Integer g) -> -perGroup[g]).thenComparingInt(g -> g));
      for (int g : groups) {
        if (g != preferredGroup && perGroup[g] > 0) {
          fitting.stream().filter(i -> groupOf[i] == g).forEach(order::add);
        }
      }
    }
    if (!r.counts().isEmpty()) {
      // Nodes with counted features first, so "a*2" is met when it can be.
      order.sort(Comparator.comparingInt(i -> hasCounted(i, r.counts()) ? 0 : 1));
    }
    // A gang never runs across zones: it is tried in each zone its candidates' machines run in,
    // in their order (nodes without a zone, powered down, go with any), the first that holds it wins.
    Set<String> zones = new LinkedHashSet<>();
    chosen.stream().map(this::zoneOf).filter(z -> z != null).forEach(zones::add);
    if (zones.size() > 1) {
      return null; // required nodes in two zones
    }
    if (zones.isEmpty()) {
      order.stream().map(this::zoneOf).filter(z -> z != null).forEach(zones::add);
    }
    List<String> tries = new ArrayList<>(zones);
    if (tries.isEmpty()) {
      tries.add(null);
    }
    for (String zone : tries) {
      List<Integer> pick = new ArrayList<>(chosen);
      for (int i : order) {
        if (pick.size() >= n) {
          break;
        }
        String z = zoneOf(i);
        if (!required.contains(i) && (z == null || z.equals(zone))) {
          pick.add(i);
        }
      }
      if (pick.size() == n && groupsUsed(pick) <= r.maxGroups() && countsMet(pick, r.counts())) {
        return pick.stream().mapToInt(Integer::intValue).toArray();
      }
    }
    return null;
  }

  private String zoneOf(int i) {
    return table.nodes.get(i).zone();
  }

  /** The group with the fewest fitting nodes that still holds n of them; -1 if none does. */
  private int bestGroup(int[] perGroup, int n) {
    int best = -1;
    for (int g = 0; g < groupCount; g++) {
      if (perGroup[g] >= n && (best < 0 || perGroup[g] < perGroup[best])) {
        best = g;
      }
    }
    return best;
  }

  private int groupsUsed(List<Integer> nodes) {
    return (int) nodes.stream().mapToInt(i -> groupOf[i]).distinct().count();
  }

  private boolean hasCounted(int i, List<Constraint.Feature> counts) {
    Set<String> features = table.nodes.get(i).features();
    return counts.stream().anyMatch(f -> features.contains(f.name()));
  }

  private boolean countsMet(List<Integer> nodes, List<Constraint.Feature> counts) {
    for (Constraint.Feature f : counts) {
      long have = nodes.stream().filter(i -> table.nodes.get(i).features().contains(f.name())).count();
      if (have < f.count()) {
        return false;
      }
    }
    return true;
  }

  /** Books a reservation that {@link #findReservation} found, before anything else was booked. */
  void book(Reservation res, GangShape s, Access a) {
    for (int i : res.nodes()) {
      table.reserve(i, s, res.start(), a);
    }
  }

  /**
   * Finds the earliest time within the backfill window at which the gang fits for its whole limit
   * on the timeline, preferring one group; {@link #book} holds it. Every time something on its
   * nodes frees is tried, as Slurm's backfill walks its whole map up to bf_window (a search that
   * stopped after a few times would leave a gang whose nodes free late without a reservation,
   * for lower jobs to starve).
   *
   * @param notBefore no start before this is tried (epoch seconds): an earlier search for the
   *     same request found none sooner, and bookings only get added
   * @return the reservation, or null when the gang cannot start on these nodes within the window
   */
  Reservation findReservation(Request r, long notBefore) {
    GangShape s = r.shape();
    for (int i : r.required()) {
      if (table.earliestStart(i, s, grid.horizon(), r.access()) < 0) {
        return null;
      }
    }
    NodeStarts starts = startsOf(r);
    if (starts.size() < s.nodes()) {
      return null;
    }
    // At least N nodes must be free by the start, so the N-th earliest time is the first
    // candidate, and usually the start. A node free then may be taken again by another
    // reservation before the gang's limit runs out, so failing that, every later time counts.
    long first = Math.max(grid.onGrid(starts.start(s.nodes() - 1)), notBefore);
    if (!grid.withinWindow(first)) {
      return null;
    }
    Reservation res = tryAt(r, starts, first);
    if (res != null) {
      return res;
    }
    for (long t : grid.startsAfter(first, starts, table)) {
      res = tryAt(r, starts, t);
      if (res != null) {
        return res;
      }
    }
    return null;
  }

  /** The request's eligible nodes by earliest start, as the table stands now. */
  private NodeStarts startsOf(Request r) {
    StartsKey key = new StartsKey(r.shape(), r.eligible(), r.access());
    NodeStarts starts = startsCache.get(key);
    if (starts == null) {
      starts = new NodeStarts(table, r.shape(), r.access(), r.eligible(), grid.horizon());
      startsCache.put(key, starts);
    } else {
      starts.refresh(marks);
    }
    return starts;
  }

  /**
   * The gang's place at {@code t}, if it fits there for its whole limit.
   *
   * @param starts a node can fit only from its own earliest start
   */
  private Reservation tryAt(Request r, NodeStarts starts, long t) {
    GangShape s = r.shape();
    List<Integer> fitting = new ArrayList<>();
    int[] perGroup = new int[groupCount];
    for (int k = 0; k < starts.size() && starts.start(k) <= t; k++) {
      int i = starts.node(k);
      if (table.fits(i, s, t, r.access())) {
        fitting.add(i);
        perGroup[groupOf[i]]++;
      }
    }
    if (fitting.size() < s.nodes()) {
      return null;
    }
    for (int i : r.required()) {
      if (!table.fits(i, s, t, r.access())) {
        return null;
      }
    }
    // The --switches limit holds while its wait runs (the request carries it only until then).
    int[] nodes = choose(r, fitting, perGroup);
    return nodes == null ? null : new Reservation(t, nodes);
  }
}
