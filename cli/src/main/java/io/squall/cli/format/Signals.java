package io.squall.cli.format;

import java.util.Locale;
import java.util.Map;

/**
 * Signal names and Linux numbers. Users write {@code -s 9}, {@code -s SIGKILL} or {@code -s kill};
 * the service is sent the bare name, and sacct prints the number after the exit code.
 */
public final class Signals {
  private static final Map<Integer, String> NAMES = Map.ofEntries(
      Map.entry(1, "HUP"), Map.entry(2, "INT"), Map.entry(3, "QUIT"), Map.entry(6, "ABRT"),
      Map.entry(9, "KILL"), Map.entry(10, "USR1"), Map.entry(12, "USR2"), Map.entry(14, "ALRM"),
      Map.entry(15, "TERM"), Map.entry(18, "CONT"), Map.entry(19, "STOP"), Map.entry(20, "TSTP"));

  private Signals() {}

  /** {@code 9}, {@code SIGKILL}, {@code kill} all become {@code KILL}; unknown numbers stay numbers. */
  public static String name(String text) {
    String t = text.strip().toUpperCase(Locale.ROOT);
    if (t.chars().allMatch(Character::isDigit) && !t.isEmpty()) {
      return NAMES.getOrDefault(Integer.parseInt(t), t);
    }
    return t.startsWith("SIG") ? t.substring(3) : t;
  }

  /** The number for a name or number ({@code KILL} or {@code SIGKILL} gives 9); null stays 0. */
  public static String number(String signal) {
    if (signal == null || signal.isBlank()) {
      return "0";
    }
    String n = name(signal);
    if (n.chars().allMatch(Character::isDigit)) {
      return n;
    }
    for (Map.Entry<Integer, String> e : NAMES.entrySet()) {
      if (e.getValue().equals(n)) {
        return Integer.toString(e.getKey());
      }
    }
    return signal;
  }
}
