package io.squall.api.auth;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.exceptions.ConfigurationException;
import io.squall.api.config.UserConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who a user token belongs to. Kept by hash ({@link TokenHash}), so tokens configured as hashes
 * and as plain text are looked up alike. Built when the controller starts, so that a user without
 * a token, a malformed hash or a token two users share stops the start instead of the first request.
 */
@Context
public final class UserTokens {
  private final Map<String, Caller> byHash = new HashMap<>();

  /** @throws ConfigurationException naming the user whose token is missing, malformed or shared */
  public UserTokens(List<UserConfig> users) {
    for (UserConfig u : users) {
      String key = "squall.users." + u.getName();
      if ((u.getToken() == null) == (u.getTokenHash() == null)) {
        throw new ConfigurationException(key + ": give exactly one of token and token-hash");
      }
      if (u.getToken() != null && u.getToken().isBlank()) {
        throw new ConfigurationException(key + ".token: empty");
      }
      String hash;
      try {
        hash = u.getToken() != null ? TokenHash.of(u.getToken()) : TokenHash.parse(u.getTokenHash());
      } catch (IllegalArgumentException e) {
        throw new ConfigurationException(key + ".token-hash: " + e.getMessage());
      }
      Caller previous = byHash.put(hash, Caller.user(u.getName(), u.getAccount(), u.isOperator()));
      if (previous != null) {
        throw new ConfigurationException(key + ": the same token as user " + previous.user()
            + "; each user needs a token of their own");
      }
    }
  }

  /** The user whose token this is, or null. */
  public Caller caller(String token) {
    return byHash.get(TokenHash.of(token));
  }
}
