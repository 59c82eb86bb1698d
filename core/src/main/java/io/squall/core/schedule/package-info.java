/**
 * One scheduling cycle: a pure function of a {@link io.squall.core.model.ClusterSnapshot} and
 * "now" that returns a {@link io.squall.core.schedule.Plan}.
 *
 * <p>Order of work: running jobs past their limit time out; pending jobs are checked for what
 * blocks them (hold, begin time, dependencies, partition and QOS limits); the rest are sorted by
 * partition priority tier, then requeued jobs before those that have not run yet, then
 * multifactor priority (ties by job key), and placed in order, each gang whole or not at all on
 * the fewest placement groups. A job that cannot start gets a reservation on the availability
 * timeline built from running jobs' time limits, at the first time within bf_window (on
 * bf_resolution's grid) at which its gang fits, for up to bf_max_job_test such jobs (see
 * {@link io.squall.core.schedule.Backfill}); a lower job starts now only if it fits on every node
 * it uses for its whole time limit around those reservations (backfill). Jobs still blocked may
 * preempt lower-tier or preemptable-QOS work, choosing the victims that lose the least work on
 * the nodes the gang lacks (jobs already preempted, in their grace time, first). Jobs that fit on no existing node become capacity demand.
 *
 * <p>Advanced reservations ({@link io.squall.core.model.Reservation}) are windows on their nodes'
 * timelines: a job that does not name one must end before its window opens on every node it uses
 * (backfill plans around it), a job that names one runs only on its nodes within the window and
 * ends at its end, unless it is FLEX; a job in a non-FLEX reservation running past its end times
 * out. Creating, using, deleting and purging them follow {@link io.squall.core.reserve}.
 *
 * <p>Determinism: lists are iterated in order and ties broken by job key and node name; the
 * same snapshot and instant always give an equal plan.
 */
package io.squall.core.schedule;
