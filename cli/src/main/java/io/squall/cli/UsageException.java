package io.squall.cli;

/** The command line is wrong; the message says what, in the tool's words. */
final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final boolean suggestHelp;

  UsageException(String message) {
    this(message, false);
  }

  /** @param suggestHelp whether to point at {@code --help} (for malformed options, as getopt tools do) */
  UsageException(String message, boolean suggestHelp) {
    super(message);
    this.suggestHelp = suggestHelp;
  }

  boolean suggestHelp() {
    return suggestHelp;
  }
}
