package io.squall.api.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node image recipe, {@code image/build-node-image.sh} in the agent archive, run against a
 * temporary root (no apt-get, no systemctl) with a stand-in nvidia-smi: the steps that can run on
 * a machine without a GPU or a cloud.
 */
class NodeImageIT {
  private static final String TWO_H100 = "#!/bin/sh\necho '0, NVIDIA H100 80GB HBM3'\necho '1, NVIDIA H100 80GB HBM3'\n";

  @Test
  void itInstallsTheAgentItsUnitAndEnvironmentAndCountsTheGpus(@TempDir Path dir) throws Exception {
    Path agent = Unpacked.unpack("agent", dir.resolve("unpacked"));
    Path root = dir.resolve("root");
    Map<String, String> env = withNvidiaSmi(dir, TWO_H100);

    Unpacked.Result r = build(agent, env, "--root", root.toString());

    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("nvidia-smi reports 2 GPUs of type h100");
    assertThat(Files.readSymbolicLink(root.resolve("opt/squall"))).isEqualTo(agent.getFileName());
    assertThat(root.resolve("etc/systemd/system/squall-agent.service")).hasSameTextualContentAs(
        agent.resolve("systemd/squall-agent.service"));
    Path agentEnv = root.resolve("etc/squall/agent.env");
    assertThat(agentEnv).hasSameTextualContentAs(agent.resolve("systemd/agent.env"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(agentEnv))).isEqualTo("rw-------");
    assertThat(root.resolve("var/lib/squall-agent")).isDirectory();
    assertThat(root.resolve("etc/systemd/system/multi-user.target.wants")).doesNotExist();

    // The installed agent runs through /opt/squall: without options it prints its usage.
    Unpacked.Result usage = Unpacked.run(List.of(root.resolve("opt/squall/bin/squall-agent").toString()), dir, env);
    assertThat(usage.exit()).as(usage.output()).isEqualTo(2);
    assertThat(usage.output()).contains("usage: squall-agent --controller URL");
  }

  @Test
  void runAgainItKeepsAFilledInEnvironmentFileAndEnablesTheUnitWhenAsked(@TempDir Path dir) throws Exception {
    Path agent = Unpacked.unpack("agent", dir.resolve("unpacked"));
    Path root = dir.resolve("root");
    Map<String, String> env = withNvidiaSmi(dir, TWO_H100);
    assertThat(build(agent, env, "--root", root.toString()).exit()).isZero();
    Path agentEnv = root.resolve("etc/squall/agent.env");
    Files.writeString(agentEnv, "SQUALL_AGENT_ARGS=--name gpu-7\n", StandardCharsets.UTF_8);

    Unpacked.Result again = build(agent, env, "--root", root.toString(), "--enable");

    assertThat(again.exit()).as(again.output()).isZero();
    assertThat(agentEnv).hasContent("SQUALL_AGENT_ARGS=--name gpu-7");
    assertThat(Files.readSymbolicLink(root.resolve("etc/systemd/system/multi-user.target.wants/squall-agent.service")))
        .isEqualTo(Path.of("/etc/systemd/system/squall-agent.service"));
  }

  @Test
  void withoutNvidiaSmiItStopsUnlessToldNotToCheck(@TempDir Path dir) throws Exception {
    Assumptions.assumeFalse(Files.exists(Path.of("/usr/bin/nvidia-smi")) || Files.exists(Path.of("/bin/nvidia-smi")),
        "this machine has nvidia-smi");
    Path agent = Unpacked.unpack("agent", dir.resolve("unpacked"));
    Map<String, String> env = Unpacked.environment(dir);

    Unpacked.Result refused = build(agent, env, "--root", dir.resolve("root").toString());
    Unpacked.Result unchecked = build(agent, env, "--root", dir.resolve("root").toString(), "--no-gpu-check");

    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.output()).contains("nvidia-smi is not on the PATH");
    assertThat(unchecked.exit()).as(unchecked.output()).isZero();
    assertThat(unchecked.output()).doesNotContain("GPUs");
  }

  @Test
  void aGpuCountOfZeroIsAFailedCheck(@TempDir Path dir) throws Exception {
    Path agent = Unpacked.unpack("agent", dir.resolve("unpacked"));

    Unpacked.Result r = build(agent, withNvidiaSmi(dir, "#!/bin/sh\nexit 0\n"), "--root", dir.resolve("root").toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.output()).contains("nvidia-smi lists no GPU");
  }

  private static Unpacked.Result build(Path agent, Map<String, String> env, String... options) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of(agent.resolve("image/build-node-image.sh").toString()));
    command.addAll(List.of(options));
    return Unpacked.run(command, agent.getParent(), env);
  }

  /** The minimal environment with a stand-in nvidia-smi (this script) first on the PATH. */
  private static Map<String, String> withNvidiaSmi(Path dir, String script) throws Exception {
    Path bin = Files.createDirectories(dir.resolve("fake-bin"));
    Path smi = bin.resolve("nvidia-smi");
    Files.writeString(smi, script, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(smi, PosixFilePermissions.fromString("rwxr-xr-x"));
    Map<String, String> env = Unpacked.environment(dir);
    env.put("PATH", bin + ":" + env.get("PATH"));
    return env;
  }
}
