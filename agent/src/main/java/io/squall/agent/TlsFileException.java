package io.squall.agent;

/** A PEM file (a CA file, a certificate or its key) that cannot be used; the message names the file and what is wrong. */
public final class TlsFileException extends Exception {
  private static final long serialVersionUID = 1L;

  TlsFileException(String message) {
    super(message);
  }
}
