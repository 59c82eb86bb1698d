package io.squall.api.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * User tokens as the controller keeps them: {@code sha256:HEX}, so a configuration file may hold
 * hashes instead of tokens ({@code squall.users.NAME.token-hash}; make one with
 * {@code squall hash-token} or {@code printf %s TOKEN | sha256sum}). Tokens are random strings,
 * not passwords, so an unsalted hash is enough: it cannot be reversed, only matched. (bcrypt, for
 * those who want it anyway, is {@link BcryptHash}.)
 */
public final class TokenHash {
  private static final String PREFIX = "sha256:";

  private TokenHash() {}

  /** The hash of a token. */
  public static String of(String token) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
      return PREFIX + HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /**
   * A configured hash in its normal form: {@code sha256:} and 64 lower-case hex digits (a bare
   * 64-digit hex string, as sha256sum prints it, is taken too).
   *
   * @throws IllegalArgumentException for anything else
   */
  public static String parse(String configured) {
    String s = configured.strip().toLowerCase(Locale.ROOT);
    String hex = s.startsWith(PREFIX) ? s.substring(PREFIX.length()) : s;
    int end = hex.indexOf(' ');
    hex = end < 0 ? hex : hex.substring(0, end); // sha256sum's "HEX  -"
    if (!hex.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException("expected sha256:<64 hex digits>, as printf %s TOKEN | sha256sum prints them");
    }
    return PREFIX + hex;
  }
}
