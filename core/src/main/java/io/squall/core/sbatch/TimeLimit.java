package io.squall.core.sbatch;

/**
 * Slurm time limits, read as Slurm's time_str2secs reads them: {@code M}, {@code M:S},
 * {@code H:M:S}, {@code D-}, {@code D-H}, {@code D-H:M}, {@code D-H:M:S}, or
 * {@code UNLIMITED}/{@code INFINITE}/{@code -1}. No field has an upper bound: each is multiplied
 * by its unit and added, so {@code 1-25:00:00} is 49 hours and {@code 25:61:00} is 1561 minutes.
 * Seconds round up to whole minutes ({@code 5:30} is 6).
 */
public final class TimeLimit {
  /** Minutes value standing for UNLIMITED. */
  public static final int UNLIMITED = -1;
  private static final String FORMS = "expected M, M:S, H:M:S, D-H, D-H:M, D-H:M:S or UNLIMITED";

  private TimeLimit() {}

  /** @return minutes (rounded up), or {@link #UNLIMITED} */
  public static int parseMinutes(String text) {
    int seconds = parseSeconds(text);
    return seconds == UNLIMITED ? UNLIMITED : (int) ((seconds + 59L) / 60);
  }

  /**
   * @return seconds, or {@link #UNLIMITED}
   * @throws IllegalArgumentException for what time_str2secs answers NO_VAL to, a negative time, or
   *     one that does not fit Slurm's 32-bit seconds
   */
  public static int parseSeconds(String text) {
    String t = text.strip();
    if (t.equalsIgnoreCase("UNLIMITED") || t.equalsIgnoreCase("INFINITE") || t.equals("-1")) {
      return UNLIMITED;
    }
    if (!isTimespec(t)) {
      throw new IllegalArgumentException("invalid time '" + text + "': " + FORMS);
    }
    if (t.startsWith("-")) {
      throw new IllegalArgumentException("a time cannot be negative: '" + text + "'");
    }
    long[] f;
    long seconds;
    int dash = t.indexOf('-');
    if (dash >= 0) {
      f = fields(t.substring(dash + 1));
      seconds = ((number(t.substring(0, dash)) * 24 + f[0]) * 60 + f[1]) * 60 + f[2];
    } else {
      f = fields(t);
      boolean hms = t.chars().filter(c -> c == ':').count() == 2;
      seconds = hms ? (f[0] * 60 + f[1]) * 60 + f[2] : f[0] * 60 + f[1];
    }
    if (seconds > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("time '" + text + "' is too large");
    }
    return (int) seconds;
  }

  /** Up to three colon-separated numbers, missing ones 0 ({@code D-} has none at all). */
  private static long[] fields(String text) {
    long[] f = new long[3];
    if (text.isEmpty()) {
      return f;
    }
    String[] parts = text.split(":", -1);
    for (int i = 0; i < parts.length; i++) {
      f[i] = number(parts[i]);
    }
    return f;
  }

  private static long number(String digits) {
    // The digits were checked; more than 12 of them would overflow any unit, so say "too large".
    return digits.length() > 12 ? Long.MAX_VALUE / 100_000 : Long.parseLong(digits);
  }

  /**
   * Slurm's _is_valid_timespec: only digits, one {@code -} before any {@code :}, at most two
   * {@code :}, and enough numbers for the separators ({@code 1-} and {@code 1-2} pass, {@code 1:}
   * and {@code 1-:2} do not).
   */
  private static boolean isTimespec(String s) {
    int numbers = 0;
    int dashes = 0;
    int colons = 0;
    boolean inNumber = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        if (!inNumber) {
          numbers++;
          inNumber = true;
        }
      } else if (c == '-' && colons == 0) {
        dashes++;
        inNumber = false;
      } else if (c == ':') {
        colons++;
        inNumber = false;
      } else {
        return false;
      }
    }
    int needed = colons == 0 ? 1 : colons + (dashes > 0 ? 2 : 1);
    return numbers >= needed && dashes <= 1 && colons <= 2;
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
