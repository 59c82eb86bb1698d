package io.squall.core.hostlist;

/** A hostlist expression that cannot be read; the message says what and where. */
public final class HostlistException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public HostlistException(String message) {
    super(message);
  }
}
