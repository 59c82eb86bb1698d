package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.agent.CaFile;
import io.squall.agent.JavaCommand;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The controller serving HTTPS with a certificate a throw-away CA signed for {@code localhost},
 * and a hand-started agent serving HTTPS with one for {@code 127.0.0.1}: the CLI and the agent
 * given the CA file work over it, the controller launches jobs on the agent trusting
 * {@code squall.tls.agent-ca}, a job's srun and its own CLI calls trust the CA file they inherit
 * from the agent, and clients that do not trust the certificate, or dial a name it does not hold,
 * are refused with one clear line.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsEndToEndTest {
  private static final Duration LONG = Duration.ofSeconds(120);
  private Path dir;
  private TestCertificates certs;
  private Controllers.Running server;
  private String url;
  private Http http;
  private Process agent;
  private TestCertificates.Server agentIdentity;

  @BeforeAll
  void start() throws Exception {
    dir = Files.createTempDirectory("squall-tls");
    certs = TestCertificates.newCa(dir.resolve("pki"));
    TestCertificates.Server localhost = certs.server("localhost", "dns:localhost");
    agentIdentity = certs.server("node-1", "ip:127.0.0.1");
    Map<String, Object> settings = Controllers.settings(dir.resolve("data"), null, "none");
    settings.put("squall.partitions.gpu.nodes", "node-1");
    settings.put("squall.partitions.gpu.placement-groups", 1);
    settings.put("squall.tls.cert", localhost.cert().toString());
    settings.put("squall.tls.key", localhost.key().toString());
    settings.put("squall.tls.agent-ca", certs.caFile.toString());
    server = Controllers.start(settings);
    assertThat(server.server().getScheme()).isEqualTo("https");
    url = "https://localhost:" + server.server().getPort();
    http = new Http(url, CaFile.sslContext(certs.caFile));
    agent = startAgent("node-1");
    Poll.until("node-1 to register over https", LONG, () -> "IDLE".equals(http.nodeState("node-1")));
  }

  @AfterAll
  void stop() {
    if (agent != null) {
      agent.destroy();
    }
    if (server != null) {
      server.close();
    }
  }

  /**
   * An agent process serving HTTPS, told the CA with --ca-file alone: nothing of the test's
   * environment says it.
   */
  private Process startAgent(String name) throws IOException {
    List<String> command = new ArrayList<>(List.of(JavaCommand.executable()));
    command.addAll(JavaCommand.QUICK_START);
    command.addAll(List.of("-cp", JavaCommand.classPath(), "io.squall.agent.AgentMain", "--controller", url,
        "--token", "change-me-agent-token", "--name", name, "--work-dir", dir.resolve(name).toString(),
        "--gpus", "8", "--cpus", "32", "--memory-mb", "262144", "--ca-file", certs.caFile.toString(),
        "--tls-cert", agentIdentity.cert().toString(), "--tls-key", agentIdentity.key().toString()));
    ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(dir.resolve(name + ".log").toFile());
    b.environment().keySet().removeIf(k -> k.startsWith("SQUALL_") || k.startsWith("SLURM_"));
    return b.start();
  }

  @Test
  void theCliWithTheCaFileSubmitsListsAndCancelsOverHttps() throws IOException {
    LoginNode login = new LoginNode(Files.createDirectories(dir.resolve("login")), url);
    Map<String, String> trusting = Map.of("SQUALL_CA_FILE", certs.caFile.toString());
    LoginNode.Run submitted = login.run(trusting, "alice-token", "sbatch", "--parsable", "--hold", "--wrap", "true");
    assertThat(submitted.status()).as(submitted.toString()).isZero();
    String id = submitted.out().strip();
    LoginNode.Run listed = login.run(trusting, "alice-token", "squeue", "--noheader", "--jobs", id, "--format", "%i %t");
    assertThat(listed.out()).as(listed.toString()).isEqualTo(id + " PD\n");
    assertThat(login.run(trusting, "alice-token", "scancel", id).status()).isZero();
    assertThat(http.jobState(id)).isEqualTo("CANCELLED");
  }

  @Test
  void withoutTheCaFileTheCliSaysTheCertificateIsNotTrusted() throws IOException {
    LoginNode login = new LoginNode(Files.createDirectories(dir.resolve("untrusting")), url);
    LoginNode.Run run = login.run("alice-token", "squeue");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).startsWith("squeue: error: the controller's certificate is not trusted: ")
        .contains("set SQUALL_CA_FILE").hasLineCount(1);
    assertThat(run.out()).isEmpty();
  }

  @Test
  void aCertificateThatDoesNotNameTheDialledHostIsRefused() throws IOException {
    // Trusted, but issued for localhost only: 127.0.0.1 is not a name it holds.
    LoginNode login = new LoginNode(Files.createDirectories(dir.resolve("by-address")),
        "https://127.0.0.1:" + server.server().getPort());
    LoginNode.Run run = login.run(Map.of("SQUALL_CA_FILE", certs.caFile.toString()), "alice-token", "sinfo");
    assertThat(run.status()).isEqualTo(1);
    assertThat(run.err()).startsWith("sinfo: error: the controller's certificate does not name the host in https://127.0.0.1:")
        .hasLineCount(1);
  }

  @Test
  void plainHttpIsNotServedBesideHttps() {
    Http plain = new Http("http://localhost:" + server.server().getPort());
    assertThatThrownBy(() -> plain.get("alice-token", "/v1/jobs")).isNotNull();
  }

  @Test
  void aJobRunsOnTheHttpsAgentAndItsSrunAndCliCallsTrustTheAgentsCa() throws IOException {
    assertThat(Files.readString(dir.resolve("node-1.log"))).contains("agent listening on https://127.0.0.1:");
    String script = """
        #!/bin/bash
        echo "ca=$SQUALL_CA_FILE"
        srun bash -c 'echo "task $SLURM_PROCID ran"'
        SQUALL_URL=%s SQUALL_TOKEN=alice-token "$SQUALL_TEST_JAVA" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \\
          -cp "$SQUALL_TEST_CP" io.squall.cli.Main squeue --noheader --jobs "$SLURM_JOB_ID" --format "inside %%i %%T"
        """.formatted(url);
    // Submitted without SQUALL_CA_FILE: the job has it from its agent.
    long id = http.submit(Map.of("script", script, "submit_dir", dir.toString(), "environment",
        Map.of("PATH", System.getenv("PATH"), "SQUALL_TEST_JAVA", JavaCommand.executable(),
            "SQUALL_TEST_CP", JavaCommand.classPath())));
    JsonNode job = Poll.until("job " + id + " to end", LONG, () -> {
      JsonNode j = http.job(id);
      return List.of("COMPLETED", "FAILED", "CANCELLED", "NODE_FAIL").contains(j.get("state").asText()) ? j : null;
    });
    String out = Files.readString(dir.resolve("slurm-" + id + ".out"));
    assertThat(job.get("state").asText()).as(out).isEqualTo("COMPLETED");
    assertThat(out).contains("ca=" + certs.caFile.toAbsolutePath() + "\n", "task 0 ran\n", "inside " + id + " RUNNING\n");
  }

  /** The controller's own process, as bin/squall server starts it: one line, no stack trace. */
  @Test
  void aMissingCertificateFileStopsTheStartInOneLineNamingTheSetting() throws Exception {
    List<String> command = new ArrayList<>(List.of(JavaCommand.executable()));
    command.addAll(JavaCommand.QUICK_START);
    command.addAll(List.of("-cp", JavaCommand.classPath(), "io.squall.api.Application"));
    Path log = dir.resolve("bad-start.log");
    ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    b.environment().keySet().removeIf(k -> k.startsWith("SQUALL_") || k.startsWith("MICRONAUT_"));
    b.environment().putAll(Map.of("SQUALL_DATA_DIR", dir.resolve("bad-data").toString(), "SQUALL_PROVIDER", "none",
        "SQUALL_PORT", "0", "SQUALL_TLS_CERT", dir.resolve("nowhere.pem").toString(),
        "SQUALL_TLS_KEY", dir.resolve("nowhere.key").toString()));
    Process p = b.start();
    assertThat(p.waitFor(90, java.util.concurrent.TimeUnit.SECONDS)).as("the controller stops by itself").isTrue();
    String output = Files.readString(log);
    assertThat(p.exitValue()).as(output).isEqualTo(1);
    assertThat(output).contains("squall: cannot start: squall.tls.cert: " + dir.resolve("nowhere.pem")
        + " does not exist\n").doesNotContain("\tat ");
  }
}
