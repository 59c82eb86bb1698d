package io.squall.cli;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * {@code squall hash-token [--bcrypt]}: reads a token on standard input and prints what the
 * controller's configuration may hold instead of it ({@code squall.users.NAME.token-hash}), so
 * that configuration files hold no secrets. The token is never an argument, which other users
 * could read in the process list.
 */
final class HashTokenCommand {
  static final String USAGE = """
      Usage: hash-token [--bcrypt] < TOKEN
        Reads a token on standard input (one trailing newline is dropped) and prints its hash for
        squall.users.NAME.token-hash: sha256:HEX, or with --bcrypt a bcrypt hash (cost 10).""";
  /** bcrypt reads only a password's first 72 bytes. */
  private static final int BCRYPT_MAX_BYTES = 72;
  private final Invocation io;

  HashTokenCommand(Invocation io) {
    this.io = io;
  }

  int run(List<String> args) {
    boolean bcrypt = false;
    for (String a : args) {
      switch (a) {
        case "--bcrypt" -> bcrypt = true;
        case "--help", "-h" -> {
          io.out().println(USAGE);
          return 0;
        }
        default -> {
          io.err().println("hash-token: unexpected argument '" + a + "' (the token is read on standard input)\n" + USAGE);
          return 2;
        }
      }
    }
    String token = SecretInput.read(io, "hash-token", "printf %s \"$TOKEN\" | squall hash-token");
    if (token == null) {
      return 2;
    }
    byte[] bytes = token.getBytes(StandardCharsets.UTF_8);
    if (!bcrypt) {
      io.out().println("sha256:" + HexFormat.of().formatHex(sha256(bytes)));
      return 0;
    }
    if (bytes.length > BCRYPT_MAX_BYTES) {
      io.err().println("hash-token: bcrypt reads only the first " + BCRYPT_MAX_BYTES + " bytes of a token and this one has "
          + bytes.length + "; use a shorter token or sha256");
      return 2;
    }
    io.out().println(BCrypt.hashpw(token, BCrypt.gensalt()));
    return 0;
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }
}
