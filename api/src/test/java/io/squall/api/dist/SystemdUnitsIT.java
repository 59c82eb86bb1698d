package io.squall.api.dist;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.agent.AgentMain;
import io.squall.core.provider.AgentBootstrap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The systemd units the server and agent archives ship: they start the launcher where the install
 * steps put it, read an environment file the archive carries, and pass {@code systemd-analyze
 * verify} where it is installed.
 */
class SystemdUnitsIT {
  @Test
  void theServerUnitRunsTheLauncherAsItsOwnUserWithAStateDirectory(@TempDir Path dir) throws Exception {
    Path server = Unpacked.unpack("server", dir);
    Map<String, List<String>> unit = parse(server.resolve("systemd/squall-server.service"));

    assertThat(unit.get("Service.ExecStart")).containsExactly(
        "/opt/squall-server/bin/squall-server --config /etc/squall/squall.yml");
    assertThat(server.resolve("bin/squall-server")).isExecutable();
    assertThat(unit.get("Service.EnvironmentFile")).containsExactly("/etc/squall/server.env");
    Map<String, String> env = environmentFile(server.resolve("systemd/server.env"));
    assertThat(unit.get("Service.User")).containsExactly("squall");
    assertThat(unit.get("Service.StateDirectory")).containsExactly("squall");
    assertThat(env).containsEntry("SQUALL_DATA_DIR", "/var/lib/squall").doesNotContainKey("SQUALL_AGENT_TOKEN");
    assertThat(unit.get("Service.Restart")).containsExactly("on-failure");
    assertThat(unit.get("Service.NoNewPrivileges")).containsExactly("yes");
    assertThat(unit.get("Install.WantedBy")).containsExactly("multi-user.target");
    verify(server.resolve("systemd/squall-server.service"), "/opt/squall-server/", server + "/", dir);
  }

  @Test
  void theAgentUnitRunsTheLauncherTheProvidersUserDataRunsAsRoot(@TempDir Path dir) throws Exception {
    Path agent = Unpacked.unpack("agent", dir);
    Map<String, List<String>> unit = parse(agent.resolve("systemd/squall-agent.service"));

    assertThat(unit.get("Service.ExecStart")).containsExactly(
        AgentBootstrap.DEFAULT_AGENT_COMMAND + " $SQUALL_AGENT_ARGS");
    assertThat(agent.resolve("bin/squall-agent")).isExecutable();
    assertThat(unit.get("Service.EnvironmentFile")).containsExactly("/etc/squall/agent.env");
    Map<String, String> env = environmentFile(agent.resolve("systemd/agent.env"));
    assertThat(env.get("SQUALL_AGENT_ARGS")).contains("--controller ", "--token-file ", "--name ", "--work-dir ");
    // Root, to start jobs as their users; and no hardening that jobs would inherit.
    assertThat(unit.get("Service.User")).containsExactly("root");
    assertThat(unit).doesNotContainKeys("Service.NoNewPrivileges", "Service.PrivateTmp", "Service.ProtectHome",
        "Service.CapabilityBoundingSet", "Service.PrivateDevices");
    assertThat(unit.get("Service.Restart")).containsExactly("on-failure");
    assertThat(unit.get("Service.RestartPreventExitStatus")).containsExactly(Integer.toString(AgentMain.EXIT_SUPERSEDED));
    verify(agent.resolve("systemd/squall-agent.service"), "/opt/squall/", agent + "/", dir);
  }

  /**
   * {@code systemd-analyze verify} on a copy whose ExecStart names the unpacked launcher (verify
   * wants it to exist); skipped where systemd is not installed. Any complaint fails: verify
   * exits 0 on unknown keys but prints them.
   */
  private static void verify(Path unit, String installed, String unpacked, Path dir) throws Exception {
    Path tool = Path.of("/usr/bin/systemd-analyze");
    Assumptions.assumeTrue(Files.isExecutable(tool), "systemd-analyze is not installed");
    Path copy = Files.createDirectories(dir.resolve("verify")).resolve(unit.getFileName());
    Files.writeString(copy, Files.readString(unit, StandardCharsets.UTF_8)
        .replace("ExecStart=" + installed, "ExecStart=" + unpacked), StandardCharsets.UTF_8);

    Unpacked.Result r = Unpacked.run(List.of(tool.toString(), "verify", copy.toString()), dir,
        Unpacked.environment(dir));

    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).isBlank();
  }

  /** {@code Section.Key} to its values in order; comments and blank lines skipped. */
  static Map<String, List<String>> parse(Path unit) throws IOException {
    Map<String, List<String>> keys = new LinkedHashMap<>();
    String section = null;
    for (String line : Files.readAllLines(unit, StandardCharsets.UTF_8)) {
      String l = line.strip();
      if (l.isEmpty() || l.startsWith("#") || l.startsWith(";")) {
        continue;
      }
      if (l.startsWith("[") && l.endsWith("]")) {
        section = l.substring(1, l.length() - 1);
        continue;
      }
      int eq = l.indexOf('=');
      assertThat(section).as(unit + ": a key before any section: " + l).isNotNull();
      assertThat(eq).as(unit + ": not Key=Value: " + l).isPositive();
      keys.computeIfAbsent(section + "." + l.substring(0, eq).strip(), k -> new ArrayList<>())
          .add(l.substring(eq + 1).strip());
    }
    return keys;
  }

  /** An environment file's assignments (systemd's syntax: NAME=value, # comments). */
  static Map<String, String> environmentFile(Path file) throws IOException {
    Map<String, String> values = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int eq = line.indexOf('=');
      assertThat(eq).as(file + ": not NAME=value: " + line).isPositive();
      values.put(line.substring(0, eq), line.substring(eq + 1));
    }
    return values;
  }
}
