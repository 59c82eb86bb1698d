package io.squall.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.exceptions.ConfigurationException;
import io.squall.api.config.UserConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCrypt;

class UserTokensTest {
  @Test
  void plainSha256AndBcryptTokensFindTheirUserAndNothingElseDoes() {
    UserTokens tokens = new UserTokens(List.of(user("alice", "alices-token", null),
        user("bob", null, TokenHash.of("bobs-token")),
        user("carol", null, BCrypt.hashpw("carols-token", BCrypt.gensalt(4))),
        user("dave", null, BCrypt.hashpw("daves-token", BCrypt.gensalt(4)).replace("$2a$", "$2b$"))));
    assertThat(tokens.caller("alices-token").user()).isEqualTo("alice");
    assertThat(tokens.caller("bobs-token").user()).isEqualTo("bob");
    assertThat(tokens.caller("carols-token").user()).isEqualTo("carol");
    assertThat(tokens.caller("daves-token").user()).isEqualTo("dave");
    assertThat(tokens.caller("carols-token ")).isNull();
    assertThat(tokens.caller(TokenHash.of("bobs-token"))).isNull();
    assertThat(tokens.caller("x".repeat(100))).isNull();
  }

  @Test
  void aTokenBcryptPassedIsRememberedByItsSha256AndAWrongOneIsNot() {
    UserTokens tokens = new UserTokens(List.of(user("carol", null, BCrypt.hashpw("carols-token", BCrypt.gensalt(4)))));
    assertThat(tokens.rememberedBcryptTokens()).isZero();
    assertThat(tokens.caller("carols-token").user()).isEqualTo("carol");
    assertThat(tokens.caller("carols-token").user()).isEqualTo("carol");
    assertThat(tokens.caller("wrong")).isNull();
    assertThat(tokens.rememberedBcryptTokens()).isEqualTo(1);
  }

  @Test
  void malformedHashesNameTheirKey() {
    for (String bad : List.of("$2a$10$short", "$2x$10$" + "a".repeat(53), "$2a$03$" + "a".repeat(53),
        "$2a$10$" + "a".repeat(52) + "!")) {
      assertThatThrownBy(() -> new UserTokens(List.of(user("carol", null, bad))))
          .as(bad).isInstanceOf(ConfigurationException.class)
          .hasMessageStartingWith("squall.users.carol.token-hash: expected a bcrypt hash");
    }
    for (String bad : List.of("sha256:abc", "sha256:" + "z".repeat(64), "sha256:" + "a".repeat(63))) {
      assertThatThrownBy(() -> new UserTokens(List.of(user("carol", null, bad))))
          .as(bad).hasMessageStartingWith("squall.users.carol.token-hash: expected sha256:<64 hex digits>");
    }
    assertThatThrownBy(() -> new UserTokens(List.of(user("carol", "$2b$10$" + "a".repeat(53), null))))
        .hasMessageStartingWith("squall.users.carol.token: this is a hash");
    assertThat(new UserTokens(List.of(user("carol", "$2b$-but-a-token-all-the-same", null)))
        .caller("$2b$-but-a-token-all-the-same").user()).isEqualTo("carol");
  }

  @Test
  void aHashReplacesOnlyATokenSquallShipsAnyOtherTokenBesideAHashIsRefused() {
    // application.yml gives alice "alice-token"; an operator's file adds a hash over it.
    UserTokens tokens = new UserTokens(List.of(user("alice", "alice-token", TokenHash.of("alices-real-token"))));
    assertThat(tokens.caller("alices-real-token").user()).isEqualTo("alice");
    assertThat(tokens.caller("alice-token")).isNull();
    assertThat(DefaultSecrets.inForce("a-secret-of-the-agents",
        List.of(user("alice", "alice-token", TokenHash.of("alices-real-token"))))).isEmpty();
    assertThatThrownBy(() -> new UserTokens(List.of(user("carol", "carols-token", TokenHash.of("carols-token")))))
        .hasMessage("squall.users.carol: give exactly one of token and token-hash");
  }

  private static UserConfig user(String name, String token, String tokenHash) {
    UserConfig u = new UserConfig(name);
    u.setToken(token);
    u.setTokenHash(tokenHash);
    u.setAccount("research");
    return u;
  }
}
