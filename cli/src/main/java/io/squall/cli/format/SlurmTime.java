package io.squall.cli.format;

import io.squall.core.sbatch.TimeLimit;
import java.util.Locale;

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
    if (days > 0) {
      return String.format(Locale.ROOT, "%d-%02d:%02d:%02d", days, hours, minutes, secs);
    }
    if (alwaysHours) {
      return String.format(Locale.ROOT, "%02d:%02d:%02d", hours, minutes, secs);
    }
    if (hours > 0) {
      return String.format(Locale.ROOT, "%d:%02d:%02d", hours, minutes, secs);
    }
    return String.format(Locale.ROOT, "%d:%02d", minutes, secs);
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
