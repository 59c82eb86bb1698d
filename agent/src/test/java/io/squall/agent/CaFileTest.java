package io.squall.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.agent.Protocol.JobSpec;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's CA file: named by --ca-file or SQUALL_CA_FILE, checked at start, handed on to jobs. */
class CaFileTest {
  @TempDir Path dir;

  private static List<String> args(String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("--controller", "https://c:1", "--token", "t", "--name", "n",
        "--work-dir", "/tmp", "--gpus", "0"));
    args.addAll(List.of(more));
    return args;
  }

  /** Some CA's certificate as PEM: one of the JDK's own, so no key has to be made here. */
  private Path someCa() throws Exception {
    KeyStore jdk = KeyStore.getInstance(KeyStore.getDefaultType());
    try (InputStream in = Files.newInputStream(Path.of(System.getProperty("java.home"), "lib", "security", "cacerts"))) {
      jdk.load(in, null);
    }
    Certificate ca = jdk.getCertificate(Collections.list(jdk.aliases()).get(0));
    return Files.writeString(dir.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder().encodeToString(ca.getEncoded()) + "\n-----END CERTIFICATE-----\n");
  }

  @Test
  void theOptionWinsOverTheEnvironmentAndNeitherMeansTheJdksCas() throws Exception {
    Path ca = someCa();
    assertThat(AgentArgs.parse(args("--ca-file", ca.toString()), Map.of(CaFile.ENV, "/nowhere"), Optional::empty)
        .caFile()).isEqualTo(ca);
    assertThat(AgentArgs.parse(args(), Map.of(CaFile.ENV, ca.toString()), Optional::empty).caFile()).isEqualTo(ca);
    assertThat(AgentArgs.parse(args(), Map.of(), Optional::empty).caFile()).isNull();
  }

  @Test
  void aCaFileThatCannotBeUsedStopsTheStart() throws Exception {
    assertThatThrownBy(() -> AgentArgs.parse(args("--ca-file", dir.resolve("none.pem").toString()), Map.of(),
        Optional::empty)).hasMessage("--ca-file (or SQUALL_CA_FILE): the CA file " + dir.resolve("none.pem")
        + " does not exist");
    Path empty = Files.writeString(dir.resolve("empty.pem"), "nothing here\n");
    assertThatThrownBy(() -> AgentArgs.parse(args(), Map.of(CaFile.ENV, empty.toString()), Optional::empty))
        .hasMessageStartingWith("--ca-file (or SQUALL_CA_FILE): the CA file " + empty);
  }

  @Test
  void theAgentsOwnCertificateAndKeyGoTogether() {
    assertThatThrownBy(() -> AgentArgs.parse(args("--tls-cert", "/etc/squall/node.pem"), Map.of(), Optional::empty))
        .hasMessage("--tls-cert and --tls-key go together: give both, or neither for plain HTTP");
    assertThatThrownBy(() -> AgentArgs.parse(args("--tls-cert", dir.resolve("n.pem").toString(), "--tls-key",
        dir.resolve("n.key").toString()), Map.of(), Optional::empty))
        .hasMessage("--tls-cert/--tls-key: " + dir.resolve("n.pem") + " does not exist");
  }

  @Test
  void aJobInheritsTheAgentsCaFileUnlessItNamesItsOwn() {
    Map<String, String> agent = JobEnvironment.agentEnvironment(Map.of("HOME", "/root"), Path.of("/etc/squall/ca.pem"));
    Map<String, String> plain = JobEnvironment.forBatch(spec(Map.of()), "n", dir.resolve("bin"), agent);
    assertThat(plain).containsEntry(CaFile.ENV, "/etc/squall/ca.pem");
    Map<String, String> own = JobEnvironment.forBatch(spec(Map.of(CaFile.ENV, "/home/a/ca.pem")), "n",
        dir.resolve("bin"), agent);
    assertThat(own).containsEntry(CaFile.ENV, "/home/a/ca.pem");
    Map<String, String> none = JobEnvironment.forBatch(spec(Map.of()), "n", dir.resolve("bin"),
        JobEnvironment.agentEnvironment(Map.of(), null));
    assertThat(none).doesNotContainKey(CaFile.ENV);
  }

  private static JobSpec spec(Map<String, String> environment) {
    return new JobSpec("1", "cred", true, "true\n", List.of(), null, environment, List.of(), null, null, null, null,
        Map.of(), null, 0);
  }
}
