package io.squall.core.provider;

/** A provider could not do what it was asked; the message says what and why. */
public final class ProviderException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ProviderException(String message, Throwable cause) {
    super(message, cause);
  }
}
