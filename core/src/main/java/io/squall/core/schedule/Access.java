package io.squall.core.schedule;

/**
 * Which advanced reservations' windows a placement may overlap, and when it may run: what
 * {@code --reservation} gives a job. A job without one may overlap none (it must end before a
 * window on the node opens); a job in a reservation may overlap that reservation's windows, and,
 * unless the reservation is FLEX, start no sooner than the reservation and end at its end at the
 * latest. Times are epoch seconds.
 *
 * @param reservation the reservation whose windows it may overlap; null for none
 * @param notBefore the earliest start
 * @param endCap the latest end ({@link Long#MAX_VALUE}: its time limit alone)
 * @param ignoreMaint MAINT windows do not count: only to explain a wait
 */
record Access(String reservation, long notBefore, long endCap, boolean ignoreMaint) {
  /** A job without a reservation. */
  static final Access NONE = new Access(null, Long.MIN_VALUE, Long.MAX_VALUE, false);

  /** When a placement from {@code start} for {@code limitSeconds} ends. */
  long end(long start, long limitSeconds) {
    return Math.min(NodeTable.plus(start, limitSeconds), endCap);
  }

  /** Whether a window of this reservation may be overlapped. */
  boolean mayOverlap(String windowOf, boolean maint) {
    return windowOf.equals(reservation) || maint && ignoreMaint;
  }

  Access ignoringMaint() {
    return new Access(reservation, notBefore, endCap, true);
  }
}
