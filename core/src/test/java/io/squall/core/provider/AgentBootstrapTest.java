package io.squall.core.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AgentBootstrapTest {
  private static final List<NodeLaunch> NODES = List.of(
      new NodeLaunch(new Node("gpu-1", 8, "h100", 192, 2_000_000, Set.of("nvlink", "ib"), "pg-1", NodeState.CLOUD),
          "http://10.0.0.2:6820", "tok-1"),
      new NodeLaunch(new Node("gpu-2", 8, "h100", 192, 2_000_000, Set.of(), null, NodeState.CLOUD),
          "http://10.0.0.2:6820", "it's-2"));

  @Test
  void eachMachinePicksItsNodeAndStartsTheAgentWatchingItsCloud() {
    String script = AgentBootstrap.script("echo 0", List.of("0", "1"), NODES, NodeAgent.defaults(),
        AgentBootstrap.Cloud.AWS);

    assertThat(script).startsWith("#!/bin/bash\n").contains("key=$(echo 0)\n")
        .contains("umask 077\nmkdir -p /run/squall\n")
        .contains("  '0')\n    printf '%s' 'tok-1' > /run/squall/agent-token\n    set -- --controller 'http://10.0.0.2:6820'"
            + " --token-file /run/squall/agent-token --name 'gpu-1' --gpus 8 --gpu-type 'h100' --cpus 192 --memory-mb 2000000 --features 'ib,nvlink'"
            + " --placement-group 'pg-1' --interruptions aws ;;\n")
        .contains("printf '%s' 'it'\\''s-2' > /run/squall/agent-token")
        .doesNotContain("SQUALL_AGENT_TOKEN")
        .contains("--memory-mb 2000000 --interruptions aws ;;\n")
        .doesNotContain("tar -xzf")
        .contains("esac\nif [ -d /run/systemd/system ] && command -v systemd-run >/dev/null; then\n"
            + "  exec systemd-run --unit=squall-agent-boot --quiet --property=Restart=on-failure")
        .contains(" --property=RestartPreventExitStatus=3 ")
        .contains("-- /opt/squall/bin/squall-agent --work-dir /var/lib/squall-agent --bind 0.0.0.0 --port 6818 \"$@\"\nfi\n")
        .endsWith("fi\nexec /opt/squall/bin/squall-agent --work-dir /var/lib/squall-agent --bind 0.0.0.0 --port 6818"
            + " \"$@\"\n");
  }

  @Test
  void gceMachinesWatchTheGceMetadataServer() {
    String script = AgentBootstrap.script("hostname", List.of("gpu-1", "gpu-2"), NODES, NodeAgent.installed("squall-agent"),
        AgentBootstrap.Cloud.GCP);

    assertThat(script).contains("--interruptions gcp ;;\n").doesNotContain("--interruptions aws");
    assertThat(AgentBootstrap.Cloud.GCP.interruptionsOption()).isEqualTo("gcp");
  }

  /** The script run for real (its token directory moved under a temporary one): the agent gets a 0600 file. */
  @Test
  void theAgentFindsItsTokenInAFileOnlyRootMayRead(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
      throws Exception {
    java.nio.file.Path agent = dir.resolve("agent.sh");
    java.nio.file.Files.writeString(agent, "#!/bin/bash\nwhile [ $# -gt 0 ]; do [ \"$1\" = --token-file ] && f=$2;"
        + " shift; done\nstat -c %a \"$f\"; cat \"$f\"; echo; env | grep -c SQUALL_AGENT_TOKEN || true\n");
    agent.toFile().setExecutable(true);
    String script = AgentBootstrap.script("echo 1", List.of("0", "1"), NODES, NodeAgent.installed(agent.toString()),
        AgentBootstrap.Cloud.AWS)
        .replace("/run/squall", dir.resolve("run").toString());
    Process p = new ProcessBuilder("/bin/bash", "-c", script).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(out).isZero();
    assertThat(out).isEqualTo("600\nit's-2\n0\n");
  }

  @Test
  void everyNodeNeedsItsKey() {
    assertThatThrownBy(() -> AgentBootstrap.script("hostname", List.of("gpu-1"), NODES, NodeAgent.installed("squall-agent"),
        AgentBootstrap.Cloud.GCP)).hasMessage("one key per node: 1 keys, 2 nodes");
  }

  @Test
  void aMachineWithoutTheAgentFetchesItsArchiveOnceAndInstallsItAsTheImageRecipeDoes() {
    String script = AgentBootstrap.script("echo 0", List.of("0", "1"), NODES,
        NodeAgent.defaults().fetchedFrom("gs://bucket/it's/squall-agent-0.1.0.tar.gz"), AgentBootstrap.Cloud.GCP);
    String url = "'gs://bucket/it'\\''s/squall-agent-0.1.0.tar.gz'";
    assertThat(script).contains("esac\nif [ ! -x /opt/squall/bin/squall-agent ]; then\n")
        .contains("  case " + url + " in\n")
        .contains("    gs://*) gcloud storage cp " + url + " \"$work/agent.tar.gz\" ;;\n")
        .contains("  tar -xzf \"$work/agent.tar.gz\" -C /opt\n  \"/opt/$dist/image/build-node-image.sh\"\n")
        .containsOnlyOnce("exec /opt/squall/bin/squall-agent");
  }

  /** Root installs what it fetches: an https archive is never fetched over http, not even after a redirect. */
  @Test
  void anHttpsArchiveIsFetchedOverHttpsOnly() {
    String script = AgentBootstrap.script("echo 0", List.of("0", "1"), NODES,
        NodeAgent.defaults().fetchedFrom("https://example.com/squall-agent-0.1.0.tar.gz"), AgentBootstrap.Cloud.AWS);
    assertThat(script).contains("    *) curl -fsSL --proto =https --proto-redir =https --retry 5 -o \"$work/agent.tar.gz\""
        + " 'https://example.com/squall-agent-0.1.0.tar.gz' ;;\n");
  }

  @Test
  void anArchiveUrlMustBeABucketOrHttpsAndInstallsAtTheDefaultCommand() {
    assertThatThrownBy(() -> NodeAgent.defaults().fetchedFrom("http://example.com/agent.tar.gz"))
        .hasMessage("agent archive URL 'http://example.com/agent.tar.gz' must start with s3://, gs:// or https://");
    assertThatThrownBy(() -> NodeAgent.defaults().fetchedFrom("s3://b/a b.tar.gz"))
        .hasMessageContaining("white space or control characters");
    assertThatThrownBy(() -> NodeAgent.installed("/usr/local/bin/agent").fetchedFrom("s3://b/a.tar.gz"))
        .hasMessage("an agent fetched from s3://b/a.tar.gz is installed at /opt/squall/bin/squall-agent, not at the"
            + " agent command /usr/local/bin/agent");
    assertThatThrownBy(() -> NodeAgent.installed(" ")).hasMessage("agent command must not be blank");
  }

  @Test
  void aPrivateCaForTheControllerIsWrittenOnceAndTheAgentTrustsIt() {
    String pem = "-----BEGIN CERTIFICATE-----\nMIIBfake'quote\n-----END CERTIFICATE-----\n";
    String script = AgentBootstrap.script("echo 0", List.of("0", "1"), NODES, NodeAgent.defaults().trusting(pem),
        AgentBootstrap.Cloud.AWS);
    assertThat(script).containsOnlyOnce("> /run/squall-controller-ca.pem && chmod 0644 /run/squall-controller-ca.pem\n")
        .contains("printf '%s\\n' '-----BEGIN CERTIFICATE-----\nMIIBfake'\\''quote\n-----END CERTIFICATE-----'"
            + " > /run/squall-controller-ca.pem && chmod 0644 /run/squall-controller-ca.pem\n")
        .endsWith("--port 6818 --ca-file /run/squall-controller-ca.pem \"$@\"\n");
    assertThat(AgentBootstrap.script("echo 0", List.of("0", "1"), NODES, NodeAgent.defaults(), AgentBootstrap.Cloud.AWS))
        .doesNotContain("--ca-file").doesNotContain("controller-ca.pem");
    assertThatThrownBy(() -> NodeAgent.defaults().trusting("not a certificate"))
        .hasMessageContaining("must be PEM certificates");
  }
}
