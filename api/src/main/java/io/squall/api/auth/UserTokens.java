package io.squall.api.auth;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.exceptions.ConfigurationException;
import io.squall.api.config.UserConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who a user token belongs to. Tokens given as text or as SHA-256 ({@code token-hash: sha256:HEX})
 * are kept by their SHA-256 and looked up by the presented token's (a lookup's timing can only
 * say something about a digest, never about the token behind it); tokens given as bcrypt
 * ({@code token-hash: $2b$...}) are checked with bcrypt, once per token: a token that passed is
 * remembered by its SHA-256, so a user's later requests cost a hash, not a bcrypt (the memory holds
 * at most one token per bcrypt user, since only tokens that passed are kept). Built when the
 * controller starts, so that a user without a token, a malformed hash or a token two users share
 * stops the start instead of the first request. Thread-safe; tokens are never logged.
 */
@Context
public final class UserTokens {
  private final Map<String, Caller> sha256 = new HashMap<>();
  private final List<Bcrypted> bcrypt = new ArrayList<>();
  private final Map<String, Caller> bcryptPassed = new ConcurrentHashMap<>();

  /** @throws ConfigurationException naming the user whose token is missing, malformed or shared */
  public UserTokens(List<UserConfig> users) {
    for (UserConfig u : users) {
      String key = "squall.users." + u.getName();
      String token = DefaultSecrets.tokenInForce(u);
      if ((token == null) == (u.getTokenHash() == null)) {
        throw new ConfigurationException(key + ": give exactly one of token and token-hash");
      }
      if (token != null && token.isBlank()) {
        throw new ConfigurationException(key + ".token: empty");
      }
      if (token != null && looksHashed(token)) {
        throw new ConfigurationException(key + ".token: this is a hash, which would make the hash itself the token;"
            + " give it as " + key + ".token-hash");
      }
      Caller caller = Caller.user(u.getName(), u.getAccount(), u.isOperator());
      String hash;
      try {
        if (u.getTokenHash() != null && BcryptHash.isBcrypt(u.getTokenHash())) {
          bcrypt.add(new Bcrypted(BcryptHash.parse(u.getTokenHash()), caller));
          continue; // a shared token cannot be seen through bcrypt's salt
        }
        hash = token != null ? TokenHash.of(token) : TokenHash.parse(u.getTokenHash());
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException(key + ".token-hash: " + e.getMessage());
      }
      Caller previous = sha256.put(hash, caller);
      if (previous != null) {
        throw new ConfigurationException(key + ": the same token as user " + previous.user()
            + "; each user needs a token of their own");
      }
    }
  }

  /**
   * Whether a configured token is in fact a hash ({@code sha256:...}, or exactly a bcrypt hash's
   * form: a random token may well start with {@code $2}).
   */
  public static boolean looksHashed(String value) {
    String s = value.strip();
    return s.regionMatches(true, 0, "sha256:", 0, "sha256:".length()) || BcryptHash.isWellFormed(s);
  }

  /** The user whose token this is, or null. */
  public Caller caller(String token) {
    String hash = TokenHash.of(token);
    Caller found = sha256.get(hash);
    if (found != null || bcrypt.isEmpty()) {
      return found;
    }
    found = bcryptPassed.get(hash);
    if (found != null) {
      return found;
    }
    for (Bcrypted b : bcrypt) {
      if (BcryptHash.matches(token, b.hash())) {
        bcryptPassed.put(hash, b.caller());
        return b.caller();
      }
    }
    return null;
  }

  /** How many tokens bcrypt has passed and are now matched by their SHA-256 alone. */
  int rememberedBcryptTokens() {
    return bcryptPassed.size();
  }

  private record Bcrypted(String hash, Caller caller) {}
}
