package io.squall.core.sbatch;

/**
 * A batch script or option that Squall refuses, with where and why. The message is meant for
 * the user as is: {@code line 7: --nodes=abc: expected a whole number, got 'abc'}.
 */
public final class SbatchException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String where;
  private final String directive;
  private final String reason;

  public SbatchException(String where, String directive, String reason) {
    super(where + ": " + (directive.isEmpty() ? "" : directive + ": ") + reason);
    this.where = where;
    this.directive = directive;
    this.reason = reason;
  }

  /** {@code line N} for a directive, {@code option} for an explicit option, {@code script}. */
  public String where() {
    return where;
  }

  /** The directive as written, e.g. {@code --nodes=abc}; empty when the whole script is at fault. */
  public String directive() {
    return directive;
  }

  public String reason() {
    return reason;
  }
}
