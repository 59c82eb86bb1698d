package io.squall.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Node;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeTableTest {
  private static final long NOW = Fixtures.T0.getEpochSecond();

  @Test
  void aReservationStartingNowKeepsOtherWorkOff() {
    List<Node> nodes = Fixtures.nodes("gpu", 1, 1);
    NodeTable table = new NodeTable(nodes, NOW);
    GangShape whole = new GangShape(1, 8, null, 1, 0, false, 60);
    GangShape one = new GangShape(1, 1, null, 1, 0, false, 10);
    table.reserve(0, whole, NOW);
    assertThat(table.fitsNowIgnoringReservations(0, one)).isTrue();
    assertThat(table.fitsNow(0, one)).isFalse();
  }
}
