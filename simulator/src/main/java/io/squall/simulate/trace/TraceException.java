package io.squall.simulate.trace;

import java.util.Objects;

/**
 * A trace that cannot be read as its format says. The message names the source, the line and the
 * field where it can, and what was wrong: {@code jobs.sacct line 14, field Elapsed: "1-2:3" is not a
 * Slurm duration ([D-]HH:MM:SS)}.
 */
public final class TraceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String source;
  private final int line;
  private final String field;
  private final String problem;

  private TraceException(String source, int line, String field, String problem, Throwable cause) {
    super(message(source, line, field, problem), cause);
    this.source = Objects.requireNonNull(source, "source");
    this.line = line;
    this.field = field;
    this.problem = Objects.requireNonNull(problem, "problem");
  }

  /** A bad value: {@code field} (the format's name for it) on {@code line} is wrong as {@code problem} says. */
  public static TraceException atField(String source, int line, String field, String problem) {
    return new TraceException(source, line, Objects.requireNonNull(field, "field"), problem, null);
  }

  /** A row that is wrong as a whole (too few fields, not a JSON object). */
  public static TraceException atLine(String source, int line, String problem) {
    return new TraceException(source, line, null, problem, null);
  }

  /** Like {@link #atLine}, keeping the parser's exception as the cause. */
  public static TraceException atLine(String source, int line, String problem, Throwable cause) {
    return new TraceException(source, line, null, problem, cause);
  }

  /** The trace as a whole is wrong: empty, or no job in it could be replayed. */
  public static TraceException ofTrace(String source, String problem) {
    return new TraceException(source, 0, null, problem, null);
  }

  public String source() {
    return source;
  }

  /** The line, from 1; 0 when the problem is not on one line. */
  public int line() {
    return line;
  }

  /** The field, by the format's name; null when the problem is not in one field. */
  public String field() {
    return field;
  }

  /** What was wrong, without the source and position. */
  public String problem() {
    return problem;
  }

  /** This problem as a skipped row; only for problems on one line. */
  SkippedRow skipped() {
    return new SkippedRow(line, field, problem);
  }

  private static String message(String source, int line, String field, String problem) {
    StringBuilder m = new StringBuilder(source);
    if (line > 0) {
      m.append(" line ").append(line);
    }
    if (field != null) {
      m.append(", field ").append(field);
    }
    return m.append(": ").append(problem).toString();
  }
}
