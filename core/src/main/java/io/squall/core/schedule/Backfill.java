package io.squall.core.schedule;

import java.time.Duration;

/**
 * How far and how finely the cycle plans ahead for jobs that cannot start now: Slurm's
 * SchedulerParameters bf_window, bf_max_job_test and bf_resolution (slurm.conf(5)), with their
 * defaults and ranges.
 *
 * <p>Slurm's bf_continue has no counterpart: it lets the backfill scheduler carry on with its job
 * list after it released its locks and job or node state changed meanwhile (SchedMD/slurm
 * src/plugins/sched/backfill/backfill.c, {@code _yield_locks}). A cycle here works on one
 * snapshot and is never interrupted, so its backfill pass always runs to the end of the queue, as
 * with bf_continue set.
 *
 * @param window how far ahead a reservation may start (bf_window, 1440 minutes; 1 minute to 30
 *     days): a job that can start only later waits without one, so lower jobs may use its nodes
 *     meanwhile, as in Slurm
 * @param maxJobTest how many jobs that cannot start now look for a reservation (bf_max_job_test,
 *     500; 1 to 1,000,000); jobs further down the queue start only if they fit now around the
 *     reservations and get none themselves
 * @param resolution the grid reserved starts lie on (bf_resolution, 60 s; 1 s to 1 hour, whole
 *     seconds): times something frees are rounded up to it, so fewer distinct starts are tried
 */
public record Backfill(Duration window, int maxJobTest, Duration resolution) {
  public static final Duration MIN_WINDOW = Duration.ofMinutes(1);
  public static final Duration MAX_WINDOW = Duration.ofDays(30);
  public static final int MAX_JOB_TEST = 1_000_000;
  public static final Duration MAX_RESOLUTION = Duration.ofHours(1);

  public Backfill {
    if (window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
      throw new IllegalArgumentException("bf_window must be 1 minute to 30 days, not " + window);
    }
    if (maxJobTest < 1 || maxJobTest > MAX_JOB_TEST) {
      throw new IllegalArgumentException("bf_max_job_test must be 1 to 1,000,000, not " + maxJobTest);
    }
    if (!validResolution(resolution)) {
      throw new IllegalArgumentException("bf_resolution must be whole seconds from 1 s to 1 hour, not " + resolution);
    }
  }

  public static Backfill defaults() {
    return new Backfill(Duration.ofMinutes(1440), 500, Duration.ofSeconds(60));
  }

  /** Whether a resolution is whole seconds from 1 s to 1 hour, as bf_resolution allows. */
  public static boolean validResolution(Duration resolution) {
    return resolution.getNano() == 0 && resolution.getSeconds() >= 1
        && resolution.compareTo(MAX_RESOLUTION) <= 0;
  }
}
