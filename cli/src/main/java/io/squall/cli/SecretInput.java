package io.squall.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * A secret read on standard input, never taken as an argument (other users read arguments in
 * the process list): one trailing newline dropped, as {@code echo} and editors leave one.
 */
final class SecretInput {
  private SecretInput() {}

  /**
   * @param command the command's name, for its messages
   * @param example how to give it, for the message when none came
   * @return the secret, or null once the error is said
   */
  static String read(Invocation io, String command, String example) {
    String secret;
    try {
      secret = new String(io.in().readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      io.err().println(command + ": cannot read standard input: " + e.getMessage());
      return null;
    }
    secret = secret.endsWith("\r\n") ? secret.substring(0, secret.length() - 2)
        : secret.endsWith("\n") ? secret.substring(0, secret.length() - 1) : secret;
    if (secret.isBlank()) {
      io.err().println(command + ": nothing on standard input (e.g. " + example + ")");
      return null;
    }
    return secret;
  }
}
