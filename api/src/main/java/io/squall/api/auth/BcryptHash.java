package io.squall.api.auth;

import java.util.regex.Pattern;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * Tokens configured as bcrypt hashes ({@code $2a$}, {@code $2b$}, {@code $2y$}), as
 * {@code squall hash-token --bcrypt} makes them. Checking one costs tens of
 * milliseconds by design, so {@link UserTokens} checks a presented token once and remembers it.
 */
final class BcryptHash {
  private static final Pattern FORM = Pattern.compile("\\$2[aby]\\$(0[4-9]|[12][0-9]|3[01])\\$[./A-Za-z0-9]{53}");

  private BcryptHash() {}

  /** Whether a configured hash is meant as bcrypt (rather than sha256). */
  static boolean isBcrypt(String configured) {
    return configured.strip().startsWith("$2");
  }

  /** Whether a value has a bcrypt hash's exact form. */
  static boolean isWellFormed(String value) {
    return FORM.matcher(value.strip()).matches();
  }

  /**
   * A configured bcrypt hash, checked for its form.
   *
   * @throws IllegalArgumentException for a hash bcrypt cannot read
   */
  static String parse(String configured) {
    String s = configured.strip();
    if (!isWellFormed(s)) {
      throw new IllegalArgumentException("expected a bcrypt hash: $2a$, $2b$ or $2y$, a cost of 04 to 31, '$' and"
          + " 53 characters of salt and hash, as 'squall hash-token --bcrypt' prints it");
    }
    return s;
  }

  /** Whether {@code token} is the one {@code hash} was made from; slow (the hash's cost). */
  static boolean matches(String token, String hash) {
    try {
      return BCrypt.checkpw(token, hash);
    } catch (IllegalArgumentException tooLongOrUnreadable) {
      return false;
    }
  }
}
