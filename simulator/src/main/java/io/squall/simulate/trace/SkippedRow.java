package io.squall.simulate.trace;

import java.util.Objects;

/**
 * A row of a trace that could not be read and was skipped (with {@code --skip-bad-rows}).
 *
 * @param line its line in the trace, from 1 (for JSON, the line where its object starts)
 * @param field the field that was wrong, by the format's own name; null when the row as a whole was
 * @param reason what was wrong with it
 */
public record SkippedRow(int line, String field, String reason) {
  public SkippedRow {
    Objects.requireNonNull(reason, "reason");
    if (line < 1) {
      throw new IllegalArgumentException("line numbers start at 1, got " + line);
    }
  }
}
