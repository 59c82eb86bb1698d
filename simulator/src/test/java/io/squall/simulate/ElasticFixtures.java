package io.squall.simulate;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** What the elastic simulation tests share: a p5 catalogue, its boot time, its nodes, its event times. */
final class ElasticFixtures {
  static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");
  static final Offering SPOT_AZ1 = new Offering("p5.48xlarge", "use1-az1", CapacityType.SPOT, 30.33,
      Availability.AVAILABLE);
  static final Offering SPOT_AZ3 = new Offering("p5.48xlarge", "use1-az3", CapacityType.SPOT, 20.99,
      Availability.AVAILABLE);
  static final Offering OD_AZ1 = new Offering("p5.48xlarge", "use1-az1", CapacityType.ON_DEMAND, 98.32,
      Availability.AVAILABLE);
  static final List<Offering> CATALOGUE = List.of(SPOT_AZ1, SPOT_AZ3, OD_AZ1);
  static final Duration BOOT = Duration.ofMinutes(3);

  private ElasticFixtures() {}

  /** {@code count} powered-down 8×H100 nodes {@code p5-001}..., {@code perGroup} to a placement group. */
  static List<Node> nodes(int count, int perGroup) {
    List<Node> out = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      out.add(new Node(String.format("p5-%03d", i), 8, "h100", 192, 2_097_152, Set.of("h100"),
          "pg" + ((i - 1) / perGroup), NodeState.CLOUD));
    }
    return out;
  }

  /** The simulated time an event line starts with ({@code PT3M launched ...}). */
  static Duration at(String event) {
    return Duration.parse(event.substring(0, event.indexOf(' ')));
  }
}
