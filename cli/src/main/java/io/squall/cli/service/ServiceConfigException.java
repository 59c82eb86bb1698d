package io.squall.cli.service;

/** The client's own settings are unusable (bad config file or URL); the message says which and why. */
public final class ServiceConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ServiceConfigException(String message) {
    super(message);
  }
}
