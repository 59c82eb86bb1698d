package io.squall.infra;

/**
 * Input {@code squall infra synth} cannot use: a missing or malformed file, an unknown provider, a
 * key the infrastructure needs that is missing or wrong. The message is one line that names the
 * file and the key, and says what to write instead.
 */
public final class InfraException extends Exception {
  private static final long serialVersionUID = 1L;

  public InfraException(String message) {
    super(message);
  }

  public InfraException(String message, Throwable cause) {
    super(message, cause);
  }
}
