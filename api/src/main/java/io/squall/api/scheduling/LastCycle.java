package io.squall.api.scheduling;

import io.squall.core.model.ClusterSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What the last scheduling cycle that ran decided from, and whether a cycle now would decide the
 * same: the scheduler is a pure function of its snapshot and the clock, so a cycle over the same
 * snapshot before any time trigger can only repeat the last plan. The committed state replaces a
 * job or a node whenever it changes (its values are immutable), so "the same" is the same
 * instances, compared by reference: a pass over 100,000 jobs takes well under a millisecond.
 *
 * @param input the snapshot it planned from (budgets included)
 * @param at when it ran
 * @param nextTrigger the earliest time trigger after {@code at}, or null
 */
record LastCycle(ClusterSnapshot input, Instant at, Instant nextTrigger) {
  /**
   * How long a cycle over an unchanged snapshot is skipped at most: what changes continuously with
   * time (the age factor, GrpTRESRunMins, budgets' remaining time) is looked at again this often.
   * Slurm's backfill scheduler runs every bf_interval, 30 s by default.
   */
  static final Duration FULL_PASS = Duration.ofSeconds(30);

  /** Before any cycle: nothing is covered. */
  static final LastCycle NONE = new LastCycle(null, Instant.MIN, null);

  /** Whether a cycle over {@code snapshot} at {@code now} would repeat this one's decisions. */
  boolean covers(ClusterSnapshot snapshot, Instant now) {
    return input != null && now.isBefore(at.plus(FULL_PASS)) && (nextTrigger == null || now.isBefore(nextTrigger))
        && input.usage() == snapshot.usage() && same(input.jobs(), snapshot.jobs())
        && same(input.nodes(), snapshot.nodes()) && input.budgets().equals(snapshot.budgets())
        && input.reservations().equals(snapshot.reservations()) && input.partitions().equals(snapshot.partitions())
        && input.qos().equals(snapshot.qos()) && input.accounts().equals(snapshot.accounts())
        && input.users().equals(snapshot.users()) && input.completing().equals(snapshot.completing());
  }

  private static boolean same(List<?> a, List<?> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i) != b.get(i)) {
        return false;
      }
    }
    return true;
  }
}
