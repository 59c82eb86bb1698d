package io.squall.api.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16's done-when: the server, an agent and a job on this machine from the unpacked archives
 * alone. The server from {@code bin/squall-server --config}, an agent from {@code
 * bin/squall-agent} that registers, a batch script submitted with the CLI archive's {@code sbatch}
 * that uses {@code scontrol} and {@code srun} inside, COMPLETED with its output where it asked.
 * Everything waits by polling under generous deadlines: a busy 2-core machine may take a minute
 * to start a JVM.
 */
class DistributionIT {
  private static final Duration DEADLINE = Duration.ofMinutes(4);
  private static final Set<String> FINAL_STATES = Set.of("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL",
      "OUT_OF_MEMORY", "PREEMPTED", "BOOT_FAIL", "DEADLINE");

  @Test
  void theUnpackedArchivesRunTheServerAnAgentAndABatchJob(@TempDir Path dir) throws Exception {
    Path server = Unpacked.unpack("server", dir);
    Path agent = Unpacked.unpack("agent", dir);
    Path cli = Unpacked.unpack("cli", dir);
    Path home = Files.createDirectories(dir.resolve("home"));
    Map<String, String> env = Unpacked.environment(home);
    int port = Unpacked.freePort();
    String url = "http://127.0.0.1:" + port;
    String agentToken = "dist-test-agent-token";

    // The archive's example configuration, with its secrets from the environment as server.env
    // gives them, and this machine's specifics in a second file over it.
    Map<String, String> serverEnv = new HashMap<>(env);
    serverEnv.put("SQUALL_AGENT_TOKEN", agentToken);
    serverEnv.put("SQUALL_ADMIN_TOKEN", "dist-test-admin-token");
    serverEnv.put("SQUALL_ALICE_TOKEN", "dist-test-alice-token");
    serverEnv.put("SQUALL_BOB_TOKEN", "dist-test-bob-token");
    Path config = dir.resolve("here.yml");
    Files.writeString(config, """
        micronaut:
          server:
            host: 127.0.0.1
            port: %d
        squall:
          data-dir: %s
          scheduler-interval: 200ms
          heartbeat-interval: 1s
          partitions:
            gpu:
              nodes: node-1
              gpus: 0
              cpus: 2
              memory-mb: 1024
        """.formatted(port, dir.resolve("data")), StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-------"));
    Path tokenFile = dir.resolve("agent-token");
    Files.writeString(tokenFile, agentToken, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    Path script = dir.resolve("job.sh");
    Files.writeString(script, """
        #!/bin/bash
        #SBATCH --job-name=from-the-archives
        #SBATCH --output=job-%j.out
        echo "nodes: $(scontrol show hostnames "$SLURM_JOB_NODELIST")"
        echo "srun: $(command -v srun)"
        srun bash -c 'echo "task $SLURM_PROCID of $SLURM_NTASKS on $SLURMD_NODENAME"'
        """, StandardCharsets.UTF_8);

    Path serverLog = dir.resolve("server.log");
    Path agentLog = dir.resolve("agent.log");
    List<Process> started = new ArrayList<>();
    Instant start = Instant.now();
    try {
      Process controller = Unpacked.start(List.of(server.resolve("bin/squall-server").toString(),
          "--config", server.resolve("conf/squall.yml").toString(), "--config", config.toString()), dir, serverEnv, serverLog);
      started.add(controller);
      Unpacked.await(() -> "the server to answer on " + url, DEADLINE, controller, serverLog, () -> healthy(url));

      Process node = Unpacked.start(List.of(agent.resolve("bin/squall-agent").toString(), "--controller", url,
          "--token-file", tokenFile.toString(), "--name", "node-1", "--work-dir", dir.resolve("node-1").toString(),
          "--gpus", "0"), dir, env, agentLog);
      started.add(node);
      Unpacked.await(() -> "the agent to register", DEADLINE, node, agentLog,
          () -> contains(agentLog, "registered with the controller"));

      env.put("SQUALL_URL", url);
      env.put("SQUALL_TOKEN", "dist-test-alice-token");
      Unpacked.Result submitted = Unpacked.run(List.of(cli.resolve("bin/sbatch").toString(), "--parsable",
          script.toString()), dir, env);
      assertThat(submitted.exit()).as(submitted.output()).isZero();
      String jobId = submitted.output().strip();
      assertThat(jobId).matches("[0-9]+");

      String[] state = {""};
      Unpacked.await(() -> "job " + jobId + " to finish (last state: '" + state[0] + "')", DEADLINE, controller,
          serverLog, () -> {
        state[0] = state(cli, dir, env, jobId);
        return FINAL_STATES.contains(state[0]);
      });
      assertThat(state[0]).as(Unpacked.read(agentLog)).isEqualTo("COMPLETED");
      String output = Unpacked.read(dir.resolve("job-" + jobId + ".out"));
      assertThat(output)
          .contains("nodes: node-1\n")
          .contains("srun: " + dir.resolve("node-1/bin/srun") + "\n")
          .contains("task 0 of 1 on node-1\n");
      System.out.println("DistributionIT: server, agent and job from the archives in "
          + Duration.between(start, Instant.now()).toSeconds() + " s");
    } finally {
      for (int i = started.size() - 1; i >= 0; i--) {
        Unpacked.stop(started.get(i));
      }
    }
  }

  private static String state(Path cli, Path dir, Map<String, String> env, String jobId) {
    try {
      Unpacked.Result sacct = Unpacked.run(List.of(cli.resolve("bin/sacct").toString(), "-j", jobId, "-n", "-P",
          "-o", "State"), dir, env);
      return sacct.exit() == 0 && !sacct.output().isBlank() ? sacct.output().strip().lines().findFirst().orElse("") : "";
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  private static boolean healthy(String url) {
    try {
      HttpResponse<Void> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + "/health"))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding());
      return r.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static boolean contains(Path log, String text) {
    return Unpacked.read(log).contains(text);
  }
}
