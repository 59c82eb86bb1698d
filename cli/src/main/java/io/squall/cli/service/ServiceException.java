package io.squall.cli.service;

/**
 * The service answered with an error status. The message is the service's {@code error} text,
 * which is written for users and printed as it is.
 */
public final class ServiceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;

  public ServiceException(int status, String message) {
    super(message);
    this.status = status;
  }

  /** The HTTP status: 400 bad input, 401 no or unknown token, 403 not yours, 404 no such thing, 409 wrong state. */
  public int status() {
    return status;
  }
}
