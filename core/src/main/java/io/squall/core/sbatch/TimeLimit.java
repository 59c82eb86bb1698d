package io.squall.core.sbatch;

/**
 * Slurm time limits: {@code M}, {@code M:S}, {@code H:M:S}, {@code D-H}, {@code D-H:M},
 * {@code D-H:M:S}, or {@code UNLIMITED}/{@code INFINITE}. Seconds round up to whole minutes,
 * as Slurm does ({@code 5:30} is 6 minutes).
 */
public final class TimeLimit {
  /** Minutes value standing for UNLIMITED. */
  public static final int UNLIMITED = -1;

  private TimeLimit() {}

  /** @return minutes (rounded up), or {@link #UNLIMITED} */
  public static int parseMinutes(String text) {
    String t = text.strip();
    if (t.equalsIgnoreCase("UNLIMITED") || t.equalsIgnoreCase("INFINITE") || t.equals("-1")) {
      return UNLIMITED;
    }
    long days = 0;
    long hours = 0;
    long minutes;
    long seconds = 0;
    int dash = t.indexOf('-');
    if (dash >= 0) {
      days = number(t.substring(0, dash), "days");
      String[] parts = t.substring(dash + 1).split(":", -1);
      if (parts.length > 3) {
        throw new IllegalArgumentException("expected D-H, D-H:M or D-H:M:S");
      }
      hours = number(parts[0], "hours");
      minutes = parts.length > 1 ? number(parts[1], "minutes") : 0;
      seconds = parts.length > 2 ? number(parts[2], "seconds") : 0;
      if (hours > 23) {
        throw new IllegalArgumentException("hours must be below 24 when days are given");
      }
    } else {
      String[] parts = t.split(":", -1);
      switch (parts.length) {
        case 1 -> minutes = number(parts[0], "minutes");
        case 2 -> {
          minutes = number(parts[0], "minutes");
          seconds = number(parts[1], "seconds");
        }
        case 3 -> {
          hours = number(parts[0], "hours");
          minutes = number(parts[1], "minutes");
          seconds = number(parts[2], "seconds");
          if (minutes > 59) {
            throw new IllegalArgumentException("minutes must be below 60");
          }
        }
        default -> throw new IllegalArgumentException(
            "expected M, M:S, H:M:S, D-H, D-H:M, D-H:M:S or UNLIMITED");
      }
    }
    if (dash >= 0 && minutes > 59) {
      throw new IllegalArgumentException("minutes must be below 60");
    }
    if (seconds > 59) {
      throw new IllegalArgumentException("seconds must be below 60");
    }
    long total = ((days * 24 + hours) * 60 + minutes) * 60 + seconds;
    long mins = (total + 59) / 60;
    if (mins > Integer.MAX_VALUE / 2) {
      throw new IllegalArgumentException("time limit too large");
    }
    return (int) mins;
  }

  private static long number(String s, String what) {
    if (!WholeNumber.is(s)) {
      throw new IllegalArgumentException(
          "bad " + what + " '" + s + "': expected M, M:S, H:M:S, D-H, D-H:M, D-H:M:S or UNLIMITED");
    }
    return Long.parseLong(s);
  }

  /** Formats minutes the way squeue prints a limit: {@code D-HH:MM:SS}, {@code HH:MM:SS}, {@code UNLIMITED}. */
  public static String format(int minutes) {
    if (minutes == UNLIMITED) {
      return "UNLIMITED";
    }
    int days = minutes / (24 * 60);
    int hours = minutes / 60 % 24;
    int mins = minutes % 60;
    String hms = String.format(java.util.Locale.ROOT, "%02d:%02d:00", hours, mins);
    return days > 0 ? days + "-" + hms : hms;
  }
}
