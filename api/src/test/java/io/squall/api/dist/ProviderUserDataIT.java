package io.squall.api.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.provider.AgentBootstrap;
import io.squall.core.provider.NodeAgent;
import io.squall.core.provider.NodeLaunch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
    int port = Unpacked.freePort();
    int deadController = Unpacked.freePort();
    NodeLaunch launch = new NodeLaunch(new Node("gpu-1", 8, "h100", 4, 16_000, Set.of("ib"), "pg-1", NodeState.CLOUD),
        "http://127.0.0.1:" + deadController, "tok-1");
    // The controller's private CA too (squall.tls.node-ca): the agent reads the file the script writes.
    String ca = Files.readString(io.squall.api.TestCertificates.newCa(dir.resolve("ca")).caFile);
    String script = movedHere(AgentBootstrap.script("echo 0", List.of("0"), List.of(launch),
        NodeAgent.defaults().trusting(ca), AgentBootstrap.Cloud.AWS), dir, port)
        .replace(AgentBootstrap.DEFAULT_AGENT_COMMAND, agent.resolve("bin/squall-agent").toString());
    assertAgentStarts(script, dir, port, deadController, Unpacked.environment(dir));
  }

  /**
   * A stock image without the agent: the user data fetches the archive (here a stand-in for the
   * AWS CLI copies the one package made), installs it as the image recipe does, and starts it.
   */
  @Test
  void onAnImageWithoutTheAgentTheUserDataFetchesAndInstallsItFirst(@TempDir Path dir) throws Exception {
    int port = Unpacked.freePort();
    int deadController = Unpacked.freePort();
    Path bin = Files.createDirectories(dir.resolve("fake-bin"));
    Path aws = bin.resolve("aws");
    Files.writeString(aws, "#!/bin/sh\n# aws s3 cp --only-show-errors URL DEST\n"
        + "[ \"$1 $2 $3 $4\" = \"s3 cp --only-show-errors s3://squall-checkpoints/squall-agent.tar.gz\" ] || exit 9\n"
        + "exec cp '" + Unpacked.archive("agent") + "' \"$5\"\n");
    aws.toFile().setExecutable(true);
    NodeLaunch launch = new NodeLaunch(new Node("gpu-1", 8, "h100", 4, 16_000, Set.of(), null, NodeState.CLOUD),
        "http://127.0.0.1:" + deadController, "tok-1");
    Path root = Files.createDirectories(dir.resolve("root/opt")).getParent(); // a machine's / has /opt
    String script = movedHere(AgentBootstrap.script("echo 0", List.of("0"), List.of(launch),
        NodeAgent.defaults().fetchedFrom("s3://squall-checkpoints/squall-agent.tar.gz"), AgentBootstrap.Cloud.AWS),
        dir, port)
        .replace(AgentBootstrap.DEFAULT_AGENT_COMMAND, root + AgentBootstrap.DEFAULT_AGENT_COMMAND)
        .replace("-C /opt", "-C " + root + "/opt")
        .replace("\"/opt/$dist/image/build-node-image.sh\"",
            "\"" + root + "/opt/$dist/image/build-node-image.sh\" --root " + root + " --no-gpu-check");
    assertThat(script).contains("aws s3 cp --only-show-errors 's3://squall-checkpoints/squall-agent.tar.gz'");
    java.util.Map<String, String> env = new java.util.HashMap<>(Unpacked.environment(dir));
    env.put("PATH", bin + ":" + env.get("PATH"));

    assertAgentStarts(script, dir, port, deadController, env);
    assertThat(root.resolve("opt/squall")).isSymbolicLink();
    assertThat(root.resolve("etc/systemd/system/squall-agent.service")).isRegularFile();
  }

  /**
   * The script with its fixed paths moved under {@code dir}, its port {@code port}, no metadata
   * watch, and the agent started directly: on a host that runs systemd the script would otherwise
   * ask it for a transient unit, which a test user may not make.
   */
  private static String movedHere(String script, Path dir, int port) {
    String systemd = "[ -d /run/systemd/system ]";
    if (!script.contains(systemd)) {
      throw new AssertionError("the script no longer asks for systemd as " + systemd + ":\n" + script);
    }
    return script.replace(systemd, "[ -d " + dir.resolve("no-systemd") + " ]")
        .replace("/run/squall", dir.resolve("run").toString())
        .replace(AgentBootstrap.WORK_DIR, dir.resolve("work").toString())
        .replace("--port " + AgentBootstrap.AGENT_PORT, "--port " + port)
        // No traffic to 169.254.169.254 from a test: the option is accepted, the watch left out.
        .replace("--interruptions aws", "--interruptions none");
  }

  private static void assertAgentStarts(String script, Path dir, int port, int deadController, java.util.Map<String, String> env)
      throws Exception {
    Path userData = dir.resolve("user-data.sh");
    Files.writeString(userData, script, StandardCharsets.UTF_8);
    Path log = dir.resolve("agent.log");

    Process p = Unpacked.start(List.of("bash", userData.toString()), dir, env, log);
    try {
      Unpacked.await(() -> "the agent to listen", Duration.ofMinutes(2), p, log,
          () -> Unpacked.read(log).contains("agent listening on "));
      assertThat(Unpacked.read(log)).contains(":" + port + "; controller http://127.0.0.1:"
          + deadController);
      assertThat(dir.resolve("work/bin/srun")).isExecutable();
    } finally {
      Unpacked.stop(p);
    }
  }
}
