package io.squall.core.sbatch;

import java.util.List;

/**
 * {@code --signal=[{R|B}:]SIG[@secs]}: which signal to send how long before the job's end (or,
 * in Squall, at once when its spot node is being taken away).
 *
 * @param name the signal name without the SIG prefix, e.g. {@code USR1}
 * @param seconds lead time; 60 when {@code @} is absent, as in Slurm
 * @param batchOnly {@code B:}: only the batch shell gets it, not the job's steps
 * @param reservation {@code R:}: also sent before the job's reservation ends
 */
public record SignalSpec(String name, int number, int seconds, boolean batchOnly, boolean reservation) {
  /** Linux signal numbers by name, 1 to 31 (real-time signals are accepted by number). */
  static final List<String> NAMES = List.of("", "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS",
      "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT",
      "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO",
      "PWR", "SYS");
  static final int DEFAULT_SECONDS = 60;
  static final int MAX_SECONDS = 0xffff;

  static SignalSpec parse(String text) {
    String t = text.strip();
    boolean batchOnly = false;
    boolean reservation = false;
    int colon = t.indexOf(':');
    if (colon >= 0) {
      for (char flag : t.substring(0, colon).toCharArray()) {
        switch (Character.toUpperCase(flag)) {
          case 'B' -> batchOnly = true;
          case 'R' -> reservation = true;
          default -> throw new IllegalArgumentException("unknown flag '" + flag + "': use B: or R: before the signal");
        }
      }
      t = t.substring(colon + 1);
    }
    int seconds = DEFAULT_SECONDS;
    int at = t.indexOf('@');
    if (at >= 0) {
      String secs = t.substring(at + 1);
      if (!WholeNumber.is(secs, 6) || Integer.parseInt(secs) > MAX_SECONDS) {
        throw new IllegalArgumentException("bad time '@" + secs + "': expected seconds from 0 to " + MAX_SECONDS);
      }
      seconds = Integer.parseInt(secs);
      t = t.substring(0, at);
    }
    int number = signalNumber(t);
    return new SignalSpec(signalName(number), number, seconds, batchOnly, reservation);
  }

  /** The name of a signal ({@code USR1} for 10), or its number as text when it has none here. */
  public static String signalName(int number) {
    return number > 0 && number < NAMES.size() ? NAMES.get(number) : Integer.toString(number);
  }

  /** Resolves {@code USR1}, {@code SIGUSR1} or {@code 10}. */
  public static int signalNumber(String text) {
    String s = text.strip().toUpperCase(java.util.Locale.ROOT);
    if (WholeNumber.is(s, 2)) {
      int n = Integer.parseInt(s);
      if (n >= 1 && n <= 64) {
        return n;
      }
    }
    if (s.startsWith("SIG")) {
      s = s.substring(3);
    }
    int index = NAMES.indexOf(s);
    if (index <= 0) {
      throw new IllegalArgumentException("unknown signal '" + text + "': use a name like USR1 or a number from 1 to 64");
    }
    return index;
  }
}
