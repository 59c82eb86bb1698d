package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.squall.api.auth.TokenHash;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.security.crypto.bcrypt.BCrypt;

/** The secrets Squall ships with, token hashes, and tokens users share. */
class SecretsTest {
  @TempDir
  Path dir;

  /** Fails while the context starts, before the server binds: nothing listens on the wildcard address. */
  @Test
  void refusesToListenBeyondLoopbackWithTheShippedSecrets() {
    Map<String, Object> settings = Controllers.settings(dir, null, "none");
    settings.put("micronaut.server.host", "0.0.0.0");
    settings.put("squall.users.bob.token", "a-secret-of-bobs");
    Throwable refused = catchThrowable(() -> Controllers.start(settings).close());
    assertThat(refused).isNotNull();
    assertThat(rootMessage(refused)).contains("refusing to listen on 0.0.0.0")
        .contains("squall.agent-token, squall.users.admin.token, squall.users.alice.token")
        .doesNotContain("squall.users.bob.token");
  }

  @Test
  void usersMayBeConfiguredWithTheirTokensHash() {
    Map<String, Object> settings = Controllers.settings(dir, null, "none");
    settings.put("squall.users.carol.token-hash", TokenHash.of("carols-real-token"));
    settings.put("squall.users.carol.account", "research");
    try (Controllers.Running c = Controllers.start(settings)) {
      Http h = new Http(c.url());
      assertThat(h.get("carols-real-token", "/v1/jobs").status()).isEqualTo(200);
      assertThat(h.get(TokenHash.of("carols-real-token"), "/v1/jobs").status()).isEqualTo(401);
      assertThat(h.get("alice-token", "/v1/jobs").status()).isEqualTo(200);
    }
  }

  @Test
  void usersMayBeConfiguredWithABcryptHashOfTheirToken() {
    Map<String, Object> settings = Controllers.settings(dir, null, "none");
    String hash = BCrypt.hashpw("carols-real-token", BCrypt.gensalt(4));
    settings.put("squall.users.carol.token-hash", hash);
    settings.put("squall.users.carol.account", "research");
    settings.put("squall.users.dave.token-hash", BCrypt.hashpw("daves-real-token", BCrypt.gensalt(4)).replace("$2a$", "$2y$"));
    settings.put("squall.users.dave.account", "research");
    try (Controllers.Running c = Controllers.start(settings)) {
      Http h = new Http(c.url());
      Http.Answer first = h.get("carols-real-token", "/v1/jobs");
      assertThat(first.status()).isEqualTo(200);
      assertThat(h.get("carols-real-token", "/v1/jobs").status()).as("again, from the memory of tokens that passed")
          .isEqualTo(200);
      assertThat(h.get("daves-real-token", "/v1/jobs").status()).isEqualTo(200);
      assertThat(h.get("carols-wrong-token", "/v1/jobs").status()).isEqualTo(401);
      assertThat(h.get(hash, "/v1/jobs").status()).isEqualTo(401);
      assertThat(h.get("alice-token", "/v1/jobs").status()).isEqualTo(200);
    }
  }

  @Test
  void aHashedTokenIsNotAShippedSecret() {
    Map<String, Object> settings = Controllers.settings(dir, null, "none");
    settings.put("micronaut.server.host", "0.0.0.0");
    settings.put("squall.agent-token", "a-secret-of-the-agents");
    settings.put("squall.users.alice.token", "alices-real-token");
    settings.put("squall.users.bob.token", "bobs-real-token");
    settings.put("squall.users.carol.token-hash", TokenHash.of("carols-real-token"));
    settings.put("squall.users.carol.account", "research");
    settings.put("squall.users.dave.token-hash", BCrypt.hashpw("daves-real-token", BCrypt.gensalt(4)));
    settings.put("squall.users.dave.account", "research");
    // Still refused, since admin's token is the shipped one; the message names its key alone (the
    // start with every secret changed is DefaultSecretsTest's, which binds nothing).
    assertThat(rootMessage(catchThrowable(() -> Controllers.start(settings).close())))
        .contains("refusing to listen on 0.0.0.0").contains("these secrets").contains(": squall.users.admin.token.")
        .doesNotContain("squall.agent-token,").doesNotContain("squall.users.carol").doesNotContain("squall.users.dave");
  }

  @Test
  void aTokenThatIsAHashOrAMalformedBcryptHashDoesNotStart() {
    Map<String, Object> bcrypt = Controllers.settings(dir, null, "none");
    bcrypt.put("squall.users.carol.token-hash", "$2b$10$tooshort");
    bcrypt.put("squall.users.carol.account", "research");
    assertThat(rootMessage(catchThrowable(() -> Controllers.start(bcrypt).close())))
        .contains("squall.users.carol.token-hash: expected a bcrypt hash");
    Map<String, Object> sha = Controllers.settings(dir, null, "none");
    sha.put("squall.users.carol.token-hash", "sha256:" + "g".repeat(64));
    sha.put("squall.users.carol.account", "research");
    assertThat(rootMessage(catchThrowable(() -> Controllers.start(sha).close())))
        .contains("squall.users.carol.token-hash: expected sha256:<64 hex digits>");
    Map<String, Object> hashAsToken = Controllers.settings(dir, null, "none");
    hashAsToken.put("squall.users.carol.token", TokenHash.of("carols-real-token"));
    hashAsToken.put("squall.users.carol.account", "research");
    assertThat(rootMessage(catchThrowable(() -> Controllers.start(hashAsToken).close())))
        .contains("squall.users.carol.token: this is a hash").contains("squall.users.carol.token-hash");
    Map<String, Object> agent = Controllers.settings(dir, null, "none");
    agent.put("squall.agent-token", TokenHash.of("the-agents-secret"));
    assertThat(rootMessage(catchThrowable(() -> Controllers.start(agent).close())))
        .contains("squall.agent-token: a hash cannot stand in for the agent token").contains("SQUALL_AGENT_TOKEN");
  }

  @Test
  void theDatabaseAndGatheredOutputAreTheControllersAlone() throws Exception {
    Path data = dir.resolve("data");
    java.nio.file.Files.createDirectories(data,
        java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
            java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x")));
    try (Controllers.Running c = Controllers.start(Controllers.settings(data, null, "none"))) {
      assertThat(mode(data)).isEqualTo("rwx--x--x");
      assertThat(mode(data.resolve("db"))).isEqualTo("rwx------");
      assertThat(mode(data.resolve("output"))).isEqualTo("rwx------");
      assertThat(data.resolve("db/squall.mv.db")).exists();
    }
  }

  @Test
  void twoUsersWithOneTokenOrABadHashDoNotStart() {
    Map<String, Object> shared = Controllers.settings(dir, null, "none");
    shared.put("squall.users.bob.token", "alice-token");
    assertThat(rootMessage(catchThrowable(() -> Controllers.start(shared).close())))
        .contains("each user needs a token of their own");
    Map<String, Object> badHash = Controllers.settings(dir, null, "none");
    badHash.put("squall.users.carol.token-hash", "md5:abc");
    badHash.put("squall.users.carol.account", "research");
    assertThat(rootMessage(catchThrowable(() -> Controllers.start(badHash).close())))
        .contains("squall.users.carol.token-hash: expected sha256:<64 hex digits>");
    Map<String, Object> blank = Controllers.settings(dir, null, "none");
    blank.put("squall.users.carol.token", " ");
    blank.put("squall.users.carol.account", "research");
    assertThat(rootMessage(catchThrowable(() -> Controllers.start(blank).close()))).contains("squall.users.carol.token");
  }

  @Test
  void hashesReadAsSha256sumPrintsThem() {
    String hex = TokenHash.of("t").substring("sha256:".length());
    assertThat(TokenHash.parse(hex + "  -")).isEqualTo("sha256:" + hex);
    assertThat(TokenHash.parse("SHA256:" + hex.toUpperCase(java.util.Locale.ROOT))).isEqualTo("sha256:" + hex);
  }

  private static String mode(Path p) throws java.io.IOException {
    return java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(p));
  }

  private static String rootMessage(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c.getMessage()).append('\n');
    }
    return all.toString();
  }
}
