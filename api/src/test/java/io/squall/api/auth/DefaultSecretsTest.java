package io.squall.api.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
  void onlyLoopbackAddressesAreLoopback() {
    assertThat(DefaultSecrets.isLoopback("127.0.0.1")).isTrue();
    assertThat(DefaultSecrets.isLoopback("::1")).isTrue();
    assertThat(DefaultSecrets.isLoopback("")).isFalse();
    assertThat(DefaultSecrets.isLoopback("0.0.0.0")).isFalse();
  }
}
