package io.squall.core.sbatch;

import java.util.Locale;

/**
 * What text a path, name or option may hold. NUL ends a C string, so no path or argument can carry
 * it (and PostgreSQL cannot store it); other control characters in a path or name are a mistake or
 * an attack on whoever reads the name later (a terminal escape in {@code squeue}'s output).
 */
public final class SafeText {
  private static final int SHOWN = 60;

  private SafeText() {}

  /** The index of the first control character (C0 or DEL) in {@code s}, or -1. */
  public static int firstControl(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        return i;
      }
    }
    return -1;
  }

  /** The control character at {@code index} of {@code s}, for an error: {@code U+000A at position 3}. */
  public static String describe(String s, int index) {
    return String.format(Locale.ROOT, "U+%04X at position %d", (int) s.charAt(index), index);
  }

  /** Whether {@code s} holds a NUL character. */
  public static boolean hasNul(String s) {
    return s.indexOf('\0') >= 0;
  }

  /** {@code s} fit for an error message: in quotes, control characters as {@code \\uXXXX}, shortened. */
  public static String quoted(String s) {
    StringBuilder b = new StringBuilder("'");
    int end = Math.min(s.length(), SHOWN);
    for (int i = 0; i < end; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    b.append(s.length() > SHOWN ? "'... (" + s.length() + " characters)" : "'");
    return b.toString();
  }
}
