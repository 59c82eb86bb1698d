package io.squall.api.tls;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.io.ResourceResolver;
import io.squall.api.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** What the controller's start-up says about each way its TLS settings can be wrong. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServerTlsTest {
  private Path dir;
  private TestCertificates.Server server;
  private TestCertificates.Server other;

  @BeforeAll
  void certificates(@TempDir Path dir) throws Exception {
    this.dir = dir;
    TestCertificates certs = TestCertificates.newCa(dir.resolve("pki"));
    server = certs.server("server", "dns:localhost");
    other = certs.server("other", "dns:other.example");
  }

  private static ServerTls start(Object cert, Object key) {
    return new ServerTls(cert.toString(), key.toString(), "127.0.0.1", new ResourceResolver());
  }

  @Test
  void aMatchingCertificateAndKeyPassAsDoesNoTlsAtAll() {
    start(server.cert(), server.key());
    start("", "");
    new ServerTls("", "", "0.0.0.0", new ResourceResolver()); // plain HTTP beyond loopback: a warning only
  }

  @Test
  void oneOfTheTwoSettingsAloneIsRefused() {
    assertThatThrownBy(() -> start(server.cert(), "")).isInstanceOf(ConfigurationException.class)
        .hasMessageStartingWith("squall.tls.key is not set: HTTPS needs both squall.tls.cert");
    assertThatThrownBy(() -> start("", server.key())).hasMessageStartingWith("squall.tls.cert is not set");
  }

  @Test
  void aKeyOfAnotherCertificateIsRefused() {
    assertThatThrownBy(() -> start(server.cert(), other.key())).isInstanceOf(ConfigurationException.class)
        .hasMessage("squall.tls.key: the key in " + other.key() + " does not belong to the certificate in "
            + server.cert() + " (squall.tls.cert); give the key the certificate was made for");
  }

  @Test
  void filesThatAreNotPemAreNamedWithTheirSetting() throws Exception {
    Path garbage = Files.writeString(dir.resolve("garbage.pem"), "not a certificate\n");
    assertThatThrownBy(() -> start(garbage, server.key()))
        .hasMessage("squall.tls.cert: " + garbage + " holds no PEM certificate (expected -----BEGIN CERTIFICATE-----)");
    assertThatThrownBy(() -> start(server.cert(), garbage))
        .hasMessageStartingWith("squall.tls.key: " + garbage + " is not a PEM private key");
    Path broken = Files.writeString(dir.resolve("broken.key"),
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    assertThatThrownBy(() -> start(server.cert(), broken))
        .hasMessageStartingWith("squall.tls.key: cannot read the private key in " + broken + ": ");
    assertThatThrownBy(() -> start(server.cert(), dir.resolve("missing.key")))
        .hasMessage("squall.tls.key: " + dir.resolve("missing.key") + " does not exist");
  }

  /** openssl writes EC keys as SEC1 ("BEGIN EC PRIVATE KEY") by default; Micronaut's reader takes them. */
  @Test
  void anOpensslEcKeyPasses() throws Exception {
    Path sec1 = dir.resolve("server-ec.key");
    Process p;
    try {
      p = new ProcessBuilder("openssl", "ec", "-in", server.key().toString(), "-out", sec1.toString())
          .redirectErrorStream(true).start();
    } catch (java.io.IOException noOpenssl) {
      assumeTrue(false, "openssl is not installed");
      return;
    }
    p.getInputStream().readAllBytes();
    assumeTrue(p.waitFor() == 0, "openssl ec failed");
    org.assertj.core.api.Assertions.assertThat(Files.readString(sec1)).startsWith("-----BEGIN EC PRIVATE KEY-----");
    start(server.cert(), sec1);
  }
}
