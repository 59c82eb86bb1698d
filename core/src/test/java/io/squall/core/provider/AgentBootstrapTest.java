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
    String script = AgentBootstrap.script("echo 0", List.of("0", "1"), NODES, "/opt/squall/bin/squall-agent",
        AgentBootstrap.Cloud.AWS);

    assertThat(script).startsWith("#!/bin/bash\n").contains("key=$(echo 0)\n")
        .contains("  '0')\n    export SQUALL_AGENT_TOKEN='tok-1'\n    set -- --controller 'http://10.0.0.2:6820'"
            + " --name 'gpu-1' --gpus 8 --gpu-type 'h100' --cpus 192 --memory-mb 2000000 --features 'ib,nvlink'"
            + " --placement-group 'pg-1' --interruptions aws ;;\n")
        .contains("export SQUALL_AGENT_TOKEN='it'\\''s-2'")
        .contains("--memory-mb 2000000 --interruptions aws ;;\n")
        .endsWith("esac\nexec /opt/squall/bin/squall-agent \"$@\"\n");
  }

  @Test
  void gceMachinesWatchTheGceMetadataServer() {
    String script = AgentBootstrap.script("hostname", List.of("gpu-1", "gpu-2"), NODES, "squall-agent",
        AgentBootstrap.Cloud.GCP);

    assertThat(script).contains("--interruptions gcp ;;\n").doesNotContain("--interruptions aws");
    assertThat(AgentBootstrap.Cloud.GCP.interruptionsOption()).isEqualTo("gcp");
  }

  @Test
  void everyNodeNeedsItsKey() {
    assertThatThrownBy(() -> AgentBootstrap.script("hostname", List.of("gpu-1"), NODES, "squall-agent",
        AgentBootstrap.Cloud.GCP)).hasMessage("one key per node: 1 keys, 2 nodes");
  }
}
