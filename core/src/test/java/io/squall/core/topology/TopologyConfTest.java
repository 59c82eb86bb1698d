package io.squall.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TopologyConfTest {
  @Test
  void treeLeafSwitchesBecomePlacementGroups() {
    TopologyConf t = TopologyConf.parse("""
        # two leaf switches under one spine
        SwitchName=s0 Nodes=gpu[001-004] LinkSpeed=900
        SwitchName=s1 Nodes=gpu[005-008]
        SwitchName=spine Switches=s[0-1]
        """);
    assertThat(t.groupOfNode()).containsEntry("gpu001", "s0").containsEntry("gpu008", "s1").hasSize(8);
    assertThat(t.parentOfSwitch()).containsEntry("s0", "spine").containsEntry("s1", "spine");
    assertThat(t.blockSizes()).isEmpty();
  }

  @Test
  void nodesTakeTheirPlacementGroupFromTheTopology() {
    TopologyConf t = TopologyConf.parse("SwitchName=leaf1 Nodes=gpu[001-002]\n");
    var nodes = io.squall.core.schedule.FixturesAccess.nodes(3);
    assertThat(t.assignGroups(nodes)).extracting(io.squall.core.model.Node::placementGroup)
        .containsExactly("leaf1", "leaf1", nodes.get(2).placementGroup());
  }

  @Test
  void blocksBecomePlacementGroups() {
    TopologyConf t = TopologyConf.parse("BlockName=b1 Nodes=n[01-16]\nBlockName=b2 Nodes=n[17-32]\nBlockSizes=16,32\n");
    assertThat(t.groupOfNode()).containsEntry("n16", "b1").containsEntry("n17", "b2");
    assertThat(t.blockSizes()).containsExactly(16, 32);
  }

  @Test
  void errorsNameTheLine() {
    assertThatThrownBy(() -> TopologyConf.parse("SwitchName=s0 Nodes=a[1-2]\nSwitchName=s1 Nodes=a2"))
        .hasMessage("line 2: node a2 is already in s0");
    assertThatThrownBy(() -> TopologyConf.parse("SwitchName=s0"))
        .hasMessage("line 1: switch s0 has neither Nodes= nor Switches=");
    assertThatThrownBy(() -> TopologyConf.parse("Frobnicate=1")).hasMessageStartingWith("line 1: expected SwitchName=");
    assertThatThrownBy(() -> TopologyConf.parse("SwitchName=s0 Nodes=a[1-2]\nBlockName=b Nodes=c1"))
        .hasMessageContaining("mixes a tree");
  }
}
