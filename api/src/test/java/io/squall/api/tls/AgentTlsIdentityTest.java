package io.squall.api.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.agent.TlsFileException;
import io.squall.agent.TlsIdentity;
import io.squall.api.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's own certificate and key (--tls-cert, --tls-key), read without a framework: here,
 * where the test CA is, rather than in the agent module.
 */
class AgentTlsIdentityTest {
  @Test
  void aMatchingPairServesAndAnythingElseIsNamed(@TempDir Path dir) throws Exception {
    TestCertificates certs = TestCertificates.newCa(dir.resolve("pki"));
    TestCertificates.Server node = certs.server("node-1", "ip:127.0.0.1");
    TestCertificates.Server other = certs.server("node-2", "ip:127.0.0.1");
    assertThat(TlsIdentity.serverContext(node.cert(), node.key()).getProtocol()).isEqualTo("TLS");

    assertThatThrownBy(() -> TlsIdentity.serverContext(node.cert(), other.key())).isInstanceOf(TlsFileException.class)
        .hasMessage("the key in " + other.key() + " does not belong to the certificate in " + node.cert());
    Path sec1 = Files.writeString(dir.resolve("ec.key"), "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n");
    assertThatThrownBy(() -> TlsIdentity.serverContext(node.cert(), sec1))
        .hasMessageStartingWith(sec1 + " is not a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----); convert")
        .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt");
    assertThatThrownBy(() -> TlsIdentity.serverContext(certs.caFile.resolveSibling("none.pem"), node.key()))
        .hasMessage(certs.caFile.resolveSibling("none.pem") + " does not exist");
    assertThatThrownBy(() -> TlsIdentity.serverContext(node.key(), node.key()))
        .hasMessage(node.key() + " holds no PEM certificate (expected -----BEGIN CERTIFICATE-----)");
  }
}
