package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.squall.api.auth.TokenHash;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
