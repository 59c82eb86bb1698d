package io.squall.core.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/** Earliest starts brought up to date after bookings are the ones worked out afresh. */
class NodeStartsTest {
  private static final long NOW = Fixtures.T0.getEpochSecond();
  private static final long HORIZON = NOW + 24 * 3600;

  private static List<long[]> entries(NodeStarts starts) {
    List<long[]> out = new ArrayList<>();
    for (int k = 0; k < starts.size(); k++) {
      out.add(new long[] {starts.start(k), starts.node(k)});
    }
    return out;
  }

  @Property(tries = 200)
  void aRefreshAfterBookingsGivesWhatAFreshLookGives(@ForAll long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int nodes = 1 + rnd.nextInt(12);
    NodeTable table = new NodeTable(Fixtures.nodes("gpu", nodes, 4), NOW);
    GangShape shape = new GangShape(2, 1 + rnd.nextInt(8), null, 1, 0, false, 10 + rnd.nextInt(600));
    int[] eligible = IntStream.range(0, nodes).filter(i -> rnd.nextInt(4) > 0).toArray();
    NodeStarts kept = new NodeStarts(table, shape, eligible, HORIZON);
    boolean[] marks = new boolean[nodes];
    for (int round = 0; round < 5; round++) {
      for (int b = rnd.nextInt(6); b > 0; b--) {
        GangShape booked = new GangShape(1, 1 + rnd.nextInt(8), null, 1, 0, false, 1 + rnd.nextInt(1500));
        table.reserve(rnd.nextInt(nodes), booked, NOW + 60L * rnd.nextInt(1000));
      }
      kept.refresh(marks);
      assertThat(entries(kept)).containsExactlyElementsOf(entries(new NodeStarts(table, shape, eligible, HORIZON)));
      for (boolean m : marks) {
        assertThat(m).isFalse();
      }
    }
  }
}
