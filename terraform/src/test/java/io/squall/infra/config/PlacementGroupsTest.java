package io.squall.infra.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.hostlist.Hostlist;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The controller's placement groups (api's ClusterLayout.addNodes), case by case; ControllerLayoutTest asks ClusterLayout itself. */
class PlacementGroupsTest {
  @Test
  void nodesSplitInOrderIntoNumberedRuns() {
    assertThat(PlacementGroups.of("gpu", Hostlist.expand("gpu-[1-10]"), 3, new HashSet<>()))
        .containsExactly("gpu-pg1", "gpu-pg2", "gpu-pg3");
  }

  @Test
  void oneGroupIsNamedAfterThePartitionAndNoMoreGroupsThanNodes() {
    assertThat(PlacementGroups.of("gpu", Hostlist.expand("gpu-[1-4]"), 1, new HashSet<>())).containsExactly("gpu");
    assertThat(PlacementGroups.of("gpu", Hostlist.expand("gpu-[1-2]"), 5, new HashSet<>()))
        .containsExactly("gpu-pg1", "gpu-pg2");
  }

  @Test
  void aNodeOfTwoPartitionsStaysInTheGroupOfTheOneLaidOutFirst() {
    Set<String> claimed = new HashSet<>();
    PlacementGroups.of("big", Hostlist.expand("n-[1-4]"), 2, claimed);
    // debug holds n-[3-6] in 2 groups: n-3 and n-4 belong to big, so only debug-pg2 (n-[5-6]) is debug's.
    assertThat(PlacementGroups.of("debug", List.of("n-3", "n-4", "n-5", "n-6"), 2, claimed))
        .containsExactly("debug-pg2");
  }
}
