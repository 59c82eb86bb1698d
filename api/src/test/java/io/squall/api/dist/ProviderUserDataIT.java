package io.squall.api.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.provider.AgentBootstrap;
import io.squall.core.provider.NodeLaunch;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The user data the aws and gcp providers generate starts the agent the archive installs at
 * /opt/squall: its command line is one the shipped launcher accepts (the agent comes up and
 * listens on the agreed port). Run here with its fixed paths moved under a temporary directory
 * and without a cloud's metadata service to watch.
 */
class ProviderUserDataIT {
  @Test
  void theShippedAgentAcceptsTheCommandLineTheProvidersUserDataGivesIt(@TempDir Path dir) throws Exception {
    Path agent = Unpacked.unpack("agent", dir);
    int port = freePort();
    int deadController = freePort();
    NodeLaunch launch = new NodeLaunch(new Node("gpu-1", 8, "h100", 4, 16_000, Set.of("ib"), "pg-1", NodeState.CLOUD),
        "http://127.0.0.1:" + deadController, "tok-1");
    String script = AgentBootstrap.script("echo 0", List.of("0"), List.of(launch), AgentBootstrap.DEFAULT_AGENT_COMMAND,
        AgentBootstrap.Cloud.AWS)
        .replace(AgentBootstrap.DEFAULT_AGENT_COMMAND, agent.resolve("bin/squall-agent").toString())
        .replace("/run/squall", dir.resolve("run").toString())
        .replace(AgentBootstrap.WORK_DIR, dir.resolve("work").toString())
        .replace("--port " + AgentBootstrap.AGENT_PORT, "--port " + port)
        // No traffic to 169.254.169.254 from a test: the option is accepted, the watch left out.
        .replace("--interruptions aws", "--interruptions none");
    Path userData = dir.resolve("user-data.sh");
    Files.writeString(userData, script, StandardCharsets.UTF_8);
    Path log = dir.resolve("agent.log");

    Process p = Unpacked.start(List.of("bash", userData.toString()), dir, Unpacked.environment(dir), log);
    try {
      Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
      while (!Files.readString(log, StandardCharsets.UTF_8).contains("agent listening on ")) {
        assertThat(p.isAlive()).as(Files.readString(log, StandardCharsets.UTF_8)).isTrue();
        assertThat(Instant.now()).as("the agent did not start: " + Files.readString(log, StandardCharsets.UTF_8))
            .isBefore(deadline);
        Thread.sleep(200);
      }
      assertThat(Files.readString(log, StandardCharsets.UTF_8)).contains(":" + port + "; controller http://127.0.0.1:"
          + deadController);
      assertThat(dir.resolve("work/bin/srun")).isExecutable();
    } finally {
      Unpacked.stop(p);
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
