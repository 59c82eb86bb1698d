package io.squall.cli.service;

/** No answer from the service: refused, unknown host, timed out or cut off. */
public final class ServiceUnreachableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ServiceUnreachableException(String url, String reason) {
    super("cannot reach the Squall service at " + url + ": " + reason + " (start it with bin/squall server)");
  }
}
