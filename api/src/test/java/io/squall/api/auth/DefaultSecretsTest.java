package io.squall.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.exceptions.ConfigurationException;
import io.squall.api.config.SquallConfig;
import io.squall.api.config.UserConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DefaultSecretsTest {
  @TempDir
  Path dir;

  @Test
  void configurationFilesOthersMayReadAreNamed() throws Exception {
    Path open = Files.writeString(dir.resolve("open.yml"), "squall: {}");
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
    Path closed = Files.writeString(dir.resolve("closed.yml"), "squall: {}");
    Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rw-------"));
    assertThat(DefaultSecrets.openToOthers(open + "," + closed + ",")).containsExactly(open);
    assertThat(DefaultSecrets.openToOthers("")).isEmpty();
  }

  @Test
  void everyShippedSecretIsRefusedBeyondLoopbackAndNamedByItsKey() {
    SquallConfig shipped = new SquallConfig();
    List<UserConfig> users = List.of(user("admin", "admin-token", null), user("alice", "alice-token", null),
        user("bob", "bob-token", null), user("carol", "change-me-agent-token", null));
    assertThatThrownBy(() -> new DefaultSecrets(shipped, users, "0.0.0.0"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("refusing to listen on 0.0.0.0")
        .hasMessageContaining("squall.agent-token, squall.users.admin.token, squall.users.alice.token,"
            + " squall.users.bob.token, squall.users.carol.token.");
    assertThatThrownBy(() -> new DefaultSecrets(shipped, List.of(), ""))
        .hasMessageContaining("refusing to listen on every address").hasMessageContaining("squall.agent-token");
    SquallConfig agentAsAdmin = new SquallConfig();
    agentAsAdmin.setAgentToken("admin-token");
    assertThatThrownBy(() -> new DefaultSecrets(agentAsAdmin, List.of(), "10.0.0.5"))
        .hasMessageContaining("squall.agent-token");
  }

  @Test
  void loopbackKeepsTheShippedSecretsAndChangedOrHashedOnesListenAnywhere() {
    SquallConfig shipped = new SquallConfig();
    List<UserConfig> users = List.of(user("admin", "admin-token", null));
    for (String host : List.of("127.0.0.1", "127.0.1.1", "::1", "localhost")) {
      new DefaultSecrets(shipped, users, host);
    }
    SquallConfig changed = new SquallConfig();
    changed.setAgentToken("a-secret-of-the-agents");
    List<UserConfig> own = List.of(user("admin", "admins-own-token", null),
        user("alice", null, TokenHash.of("alices-own-token")),
        user("bob", null, "$2b$04$" + "a".repeat(53)));
    for (String host : List.of("0.0.0.0", "10.0.0.5", "")) {
      new DefaultSecrets(changed, own, host);
    }
  }

  @Test
  void anAgentTokenGivenAsAHashIsRefused() {
    SquallConfig hashed = new SquallConfig();
    hashed.setAgentToken("$2a$10$" + "a".repeat(53));
    assertThatThrownBy(() -> new DefaultSecrets(hashed, List.of(), "127.0.0.1"))
        .hasMessageStartingWith("squall.agent-token: a hash cannot stand in for the agent token");
  }

  private static UserConfig user(String name, String token, String tokenHash) {
    UserConfig u = new UserConfig(name);
    u.setToken(token);
    u.setTokenHash(tokenHash);
    return u;
  }

  @Test
  void onlyLoopbackAddressesAreLoopback() {
    assertThat(DefaultSecrets.isLoopback("127.0.0.1")).isTrue();
    assertThat(DefaultSecrets.isLoopback("127.1.2.3")).isTrue();
    assertThat(DefaultSecrets.isLoopback("localhost")).isTrue();
    assertThat(DefaultSecrets.isLoopback("::1")).isTrue();
    assertThat(DefaultSecrets.isLoopback("")).isFalse();
    assertThat(DefaultSecrets.isLoopback("0.0.0.0")).isFalse();
  }
}
