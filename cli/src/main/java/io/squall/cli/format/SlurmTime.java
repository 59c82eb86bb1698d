package io.squall.cli.format;

import io.squall.core.sbatch.TimeLimit;

/**
 * Durations as Slurm's tools print them (moments: {@link TimeFormat}). Two duration styles exist in Slurm and
 * scripts parse both: squeue and sinfo drop leading zero fields ({@code 0:05}), sacct and
 * scontrol always show hours ({@code 00:00:05}).
 */
public final class SlurmTime {
  private SlurmTime() {}

  /** squeue's and sinfo's style: {@code 0:05}, {@code 1:02:03}, {@code 1-00:00:00}. */
  public static String compact(long seconds) {
    return duration(seconds, false);
  }

  /** sacct's and scontrol's style: {@code 00:00:05}, {@code 01:02:03}, {@code 1-00:00:00}. */
  public static String full(long seconds) {
    return duration(seconds, true);
  }

  /** @param alwaysHours print hours (two digits) even when zero, as sacct and scontrol do */
  private static String duration(long seconds, boolean alwaysHours) {
    if (seconds < 0) {
      return "INVALID";
    }
    long days = seconds / 86_400;
    long hours = seconds / 3_600 % 24;
    long minutes = seconds / 60 % 60;
    long secs = seconds % 60;
    // Built by hand, not with String.format: squeue's %M prints one per job, and at 100,000 jobs the
    // formatter (in the client's C1-only JVM) cost a third of a second.
    StringBuilder b = new StringBuilder(16);
    if (days > 0) {
      b.append(days).append('-');
    }
    if (days > 0 || alwaysHours) {
      twoDigits(b, hours).append(':');
    } else if (hours > 0) {
      b.append(hours).append(':');
    }
    // Minutes take two digits once anything stands before them.
    (b.isEmpty() ? b.append(minutes) : twoDigits(b, minutes)).append(':');
    return twoDigits(b, secs).toString();
  }

  private static StringBuilder twoDigits(StringBuilder b, long value) {
    return (value < 10 ? b.append('0') : b).append(value);
  }

  /** squeue's {@code %l}: a limit in minutes, null meaning none. */
  public static String limit(Long minutes) {
    return minutes == null ? "UNLIMITED" : compact(minutes * 60);
  }

  /** scontrol's TimeLimit: core's {@link TimeLimit#format} ({@code 01:00:00}), null meaning none. */
  public static String fullLimit(Long minutes) {
    return TimeLimit.format(minutes == null ? TimeLimit.UNLIMITED : Math.toIntExact(minutes));
  }
}
