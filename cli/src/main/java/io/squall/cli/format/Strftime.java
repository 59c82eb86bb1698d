package io.squall.cli.format;

import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.time.temporal.ChronoField;
import java.time.temporal.IsoFields;
import java.time.temporal.WeekFields;
import java.util.Locale;

/**
 * strftime(3) as glibc implements it in the C locale, for {@code SLURM_TIME_FORMAT}: every
 * conversion of the man page, with glibc's flags {@code -} (no padding), {@code _} (spaces) and
 * {@code 0} (zeros). An unknown conversion is printed as written, as glibc does.
 */
public final class Strftime {
  private Strftime() {}

  public static String format(String pattern, ZonedDateTime t) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < pattern.length()) {
      char c = pattern.charAt(i++);
      if (c != '%' || i >= pattern.length()) {
        out.append(c);
        continue;
      }
      int start = i - 1;
      char pad = 0;
      if ("-_0".indexOf(pattern.charAt(i)) >= 0 && i + 1 < pattern.length()) {
        pad = pattern.charAt(i++);
      }
      String value = conversion(pattern.charAt(i++), pad, t);
      out.append(value != null ? value : pattern.substring(start, i));
    }
    return out.toString();
  }

  /** One conversion, or null for a letter strftime does not know. */
  private static String conversion(char letter, char pad, ZonedDateTime t) {
    return switch (letter) {
      case 'a' -> t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ROOT);
      case 'A' -> t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ROOT);
      case 'b', 'h' -> t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ROOT);
      case 'B' -> t.getMonth().getDisplayName(TextStyle.FULL, Locale.ROOT);
      case 'c' -> format("%a %b %e %H:%M:%S %Y", t);
      case 'C' -> number(t.getYear() / 100, 2, '0', pad);
      case 'd' -> number(t.getDayOfMonth(), 2, '0', pad);
      case 'D', 'x' -> format("%m/%d/%y", t);
      case 'e' -> number(t.getDayOfMonth(), 2, ' ', pad);
      case 'F' -> format("%Y-%m-%d", t);
      case 'g' -> number(t.get(IsoFields.WEEK_BASED_YEAR) % 100, 2, '0', pad);
      case 'G' -> Integer.toString(t.get(IsoFields.WEEK_BASED_YEAR));
      case 'H' -> number(t.getHour(), 2, '0', pad);
      case 'I' -> number(hour12(t), 2, '0', pad);
      case 'j' -> number(t.getDayOfYear(), 3, '0', pad);
      case 'k' -> number(t.getHour(), 2, ' ', pad);
      case 'l' -> number(hour12(t), 2, ' ', pad);
      case 'm' -> number(t.getMonthValue(), 2, '0', pad);
      case 'M' -> number(t.getMinute(), 2, '0', pad);
      case 'n' -> "\n";
      case 'p' -> t.getHour() < 12 ? "AM" : "PM";
      case 'P' -> t.getHour() < 12 ? "am" : "pm";
      case 'r' -> format("%I:%M:%S %p", t);
      case 'R' -> format("%H:%M", t);
      case 's' -> Long.toString(t.toEpochSecond());
      case 'S' -> number(t.getSecond(), 2, '0', pad);
      case 't' -> "\t";
      case 'T', 'X' -> format("%H:%M:%S", t);
      case 'u' -> Integer.toString(t.getDayOfWeek().getValue());
      case 'U' -> number(t.get(WeekFields.SUNDAY_START.weekOfYear()), 2, '0', pad);
      case 'V' -> number(t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR), 2, '0', pad);
      case 'w' -> Integer.toString(t.getDayOfWeek().getValue() % 7);
      case 'W' -> number(t.get(WeekFields.ISO.weekOfYear()), 2, '0', pad);
      case 'y' -> number(t.getYear() % 100, 2, '0', pad);
      case 'Y' -> Integer.toString(t.getYear());
      case 'z' -> zoneOffset(t.get(ChronoField.OFFSET_SECONDS));
      case 'Z' -> t.getZone().getDisplayName(TextStyle.SHORT, Locale.ROOT);
      case '%' -> "%";
      default -> null;
    };
  }

  private static int hour12(ZonedDateTime t) {
    int h = t.getHour() % 12;
    return h == 0 ? 12 : h;
  }

  /** @param usual the padding the conversion has by default; {@code flag} overrides it */
  private static String number(int value, int width, char usual, char flag) {
    String digits = Integer.toString(value);
    char pad = flag == 0 ? usual : flag == '_' ? ' ' : flag == '0' ? '0' : 0;
    if (pad == 0 || digits.length() >= width) {
      return digits;
    }
    return String.valueOf(pad).repeat(width - digits.length()) + digits;
  }

  private static String zoneOffset(int seconds) {
    int minutes = Math.abs(seconds) / 60;
    return String.format(Locale.ROOT, "%c%02d%02d", seconds < 0 ? '-' : '+', minutes / 60, minutes % 60);
  }
}
