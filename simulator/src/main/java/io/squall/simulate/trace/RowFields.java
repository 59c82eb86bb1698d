package io.squall.simulate.trace;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * One row being read: turns its fields' text into values, and says which line and field was wrong
 * when one is.
 */
final class RowFields {
  private static final Pattern WHOLE = Pattern.compile("[-+]?\\d{1,9}");
  private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?");

  private final String source;
  private final int line;

  RowFields(String source, int line) {
    this.source = source;
    this.line = line;
  }

  int line() {
    return line;
  }

  /** A problem with {@code field} on this row. */
  TraceException bad(String field, String problem) {
    return TraceException.atField(source, line, field, problem);
  }

  /** A problem with this row as a whole. */
  TraceException bad(String problem) {
    return TraceException.atLine(source, line, problem);
  }

  int wholeNumber(String field, String text) {
    if (!WHOLE.matcher(text).matches()) {
      throw bad(field, quoted(text) + " is not a whole number");
    }
    return Integer.parseInt(text);
  }

  /** A decimal number such as {@code 12}, {@code 3221.05} or {@code 1e3}; never NaN or infinite. */
  double decimal(String field, String text) {
    if (!DECIMAL.matcher(text).matches()) {
      throw bad(field, quoted(text) + " is not a number");
    }
    double value = Double.parseDouble(text);
    if (Double.isInfinite(value)) {
      throw bad(field, quoted(text) + " is too large");
    }
    return value;
  }

  /** {@code seconds} as a duration, to the millisecond. */
  Duration seconds(String field, double seconds) {
    if (Math.abs(seconds) > Long.MAX_VALUE / 1000.0) {
      throw bad(field, seconds + " s is too long");
    }
    return Duration.ofMillis(Math.round(seconds * 1000));
  }

  /** The text, or null when it is blank. */
  static String orNull(String text) {
    return text == null || text.isBlank() ? null : text.strip();
  }

  static String quoted(String text) {
    return "\"" + text + "\"";
  }
}
