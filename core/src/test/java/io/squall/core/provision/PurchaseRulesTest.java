package io.squall.core.provision;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.money.PriceCaps;
import io.squall.core.provider.CapacityType;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PurchaseRulesTest {
  private static final Instant T0 = Instant.parse("2026-11-26T00:00:00Z");
  private final PurchaseRules rules = new PurchaseRules(
      Map.of("spot", new PurchaseRules.QosRule(QosCapacity.SPOT_ONLY, PriceCaps.NONE),
          "urgent", new PurchaseRules.QosRule(QosCapacity.ON_DEMAND, new PriceCaps(null, 14.0)),
          "deadline", new PurchaseRules.QosRule(QosCapacity.DEADLINE, PriceCaps.NONE)),
      Map.of("ml", new PriceCaps(4.0, null), "vision", new PriceCaps(5.0, 13.0)),
      Map.of("vision", "ml"));

  private static PurchaseRules.JobFacts job(String account, String qos, Instant deadline) {
    return new PurchaseRules.JobFacts("1", account, qos, T0, deadline, Duration.ofHours(2), Duration.ZERO,
        Duration.ofMinutes(5), 0.1, 5);
  }

  @Test
  void aQosSetsTheCapacityAndAccountCapsRollDownFromTheParents() {
    JobPurchase spot = rules.forJob(job("vision", "spot", null), T0, Set.of());
    assertThat(spot.capacityTypes()).containsExactly(CapacityType.SPOT);
    assertThat(spot.caps()).isEqualTo(new PriceCaps(4.0, 13.0)); // ml's spot cap, vision's on-demand cap
    assertThat(spot.why()).isEqualTo("QOS spot: spot-only; account vision caps " + new PriceCaps(4.0, 13.0));
    assertThat(spot.reworkHours()).isEqualTo(0.1);
    JobPurchase urgent = rules.forJob(job("ml", "urgent", null), T0, Set.of());
    assertThat(urgent.capacityTypes()).containsExactly(CapacityType.ON_DEMAND);
    assertThat(urgent.caps()).isEqualTo(new PriceCaps(4.0, 14.0));
    JobPurchase plain = rules.forJob(job("other", "normal", null), T0, Set.of());
    assertThat(plain.capacityTypes()).containsExactlyInAnyOrder(CapacityType.SPOT, CapacityType.ON_DEMAND);
    assertThat(plain.why()).isEmpty();
  }

  @Test
  void aDeadlineFollowsUniformProgressUnlessTheQosFixesTheCapacity() {
    Instant deadline = T0.plus(Duration.ofHours(4));
    assertThat(rules.forJob(job("other", "deadline", deadline), T0, Set.of()).capacityTypes())
        .containsExactly(CapacityType.SPOT);
    // Late in the window with nothing done: the safety net.
    JobPurchase late = rules.forJob(job("other", "normal", deadline), T0.plus(Duration.ofMinutes(115)), Set.of());
    assertThat(late.capacityTypes()).containsExactly(CapacityType.ON_DEMAND);
    assertThat(late.why()).startsWith("deadline: safety net");
    assertThat(rules.forJob(job("other", "spot", deadline), T0.plus(Duration.ofMinutes(115)), Set.of())
        .capacityTypes()).containsExactly(CapacityType.SPOT);
  }

  @Test
  void pastASoftBudgetNothingButSpotAndAnOnDemandQosThenHasNothingLeft() {
    JobPurchase p = rules.forJob(job("ml", "urgent", null), T0, Set.of("ml"));
    assertThat(p.capacityTypes()).isEmpty();
    assertThat(p.why()).contains("QOS urgent: on-demand").contains("past its soft budget");
  }
}
