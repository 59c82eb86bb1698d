package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.fake.FakeSquall;
import org.junit.jupiter.api.Test;
import org.springframework.security.crypto.bcrypt.BCrypt;

class HashTokenCommandTest {
  private final Cli cli = new Cli(FakeSquall.deadUrl());

  @Test
  void printsTheSha256OfTheTokenOnStandardInput() {
    // printf %s s3cret | sha256sum
    String expected = "sha256:1ec1c26b50d5d3c58d9583181af8076655fe00756bf7285940ba3670f99fcba0";
    Cli.Result r = cli.stdin("s3cret\n").run("hash-token");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo(expected + "\n");
    assertThat(cli.stdin("s3cret").run("hash-token").out()).as("one trailing newline is not part of the token")
        .isEqualTo(r.out());
  }

  @Test
  void printsABcryptHashThatTheTokenMatches() {
    Cli.Result r = cli.stdin("s3cret\n").run("hash-token", "--bcrypt");
    assertThat(r.exit()).as(r.err()).isZero();
    String hash = r.out().strip();
    assertThat(hash).startsWith("$2a$10$").hasSize(60);
    assertThat(BCrypt.checkpw("s3cret", hash)).isTrue();
    assertThat(BCrypt.checkpw("s3cret\n", hash)).isFalse();
  }

  @Test
  void refusesNoTokenATokenAsAnArgumentAndTooLongABcryptToken() {
    assertThat(cli.stdin("").run("hash-token").exit()).isEqualTo(2);
    Cli.Result arg = cli.stdin("").run("hash-token", "s3cret");
    assertThat(arg.exit()).isEqualTo(2);
    assertThat(arg.err()).contains("standard input");
    assertThat(arg.out()).isEmpty();
    Cli.Result longToken = cli.stdin("x".repeat(73)).run("hash-token", "--bcrypt");
    assertThat(longToken.exit()).isEqualTo(2);
    assertThat(longToken.err()).contains("72 bytes");
  }
}
