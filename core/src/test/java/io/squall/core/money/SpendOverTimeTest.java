package io.squall.core.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.squall.core.provider.CapacityType;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SpendOverTimeTest {
  private static final Instant START = Instant.parse("2026-11-01T00:00:00Z");

  @Test
  void cutsAreEvenAndEndAtNowExactly() {
    Instant now = START.plusSeconds(3600 * 10 + 1);
    List<Instant> cuts = SpendOverTime.cuts(START, now, 4);
    assertThat(cuts).containsExactly(START, START.plusMillis(9000250), START.plusMillis(18000500),
        START.plusMillis(27000750), now);
    // Too short a span for that many points: its two ends.
    assertThat(SpendOverTime.cuts(START, START.plusMillis(3), 4)).containsExactly(START, START.plusMillis(3));
    assertThat(SpendOverTime.cuts(START, START, 4)).containsExactly(START, START);
    assertThatThrownBy(() -> SpendOverTime.cuts(START, now, 0)).hasMessageContaining("within 1 and 500");
    assertThatThrownBy(() -> SpendOverTime.cuts(START, now, 501)).hasMessageContaining("not 501");
  }

  @Test
  void aBudgetsLineAddsUpItsSubAccountsAndNothingElse() {
    List<Instant> cuts = List.of(START, START.plusSeconds(10), START.plusSeconds(20), START.plusSeconds(30));
    List<Map<String, Double>> spend = List.of(
        Map.of("vision", 5.0, "nlp", 100.0),
        Map.of(),
        Map.of("vision-interns", 2.5, "vision", 1.0));
    List<SpendOverTime.Point> line = SpendOverTime.cumulative(cuts, spend, a -> a.startsWith("vision"));
    assertThat(line).containsExactly(new SpendOverTime.Point(START, 0), new SpendOverTime.Point(cuts.get(1), 5),
        new SpendOverTime.Point(cuts.get(2), 5), new SpendOverTime.Point(cuts.get(3), 8.5));
    assertThatThrownBy(() -> SpendOverTime.cumulative(cuts, spend.subList(0, 2), a -> true))
        .hasMessageContaining("4 cuts make 3 periods, not 2");
  }

  @Test
  void spendByCapacityTypeAndWhatSpotSaved() {
    Charges.JobCharge moved = new Charges.JobCharge(30, 100, 8, Set.of(CapacityType.SPOT, CapacityType.ON_DEMAND),
        Set.of("p5.48xlarge"), Map.of(CapacityType.SPOT, 10.0, CapacityType.ON_DEMAND, 20.0));
    Charges.JobCharge spot = new Charges.JobCharge(5, 20, 1, Set.of(CapacityType.SPOT), Set.of("p5.48xlarge"),
        Map.of(CapacityType.SPOT, 5.0));
    SpendOverTime.ByCapacityType by = SpendOverTime.ByCapacityType.of(List.of(moved, spot));
    assertThat(by.usd()).containsExactly(Map.entry(CapacityType.SPOT, 15.0), Map.entry(CapacityType.ON_DEMAND, 20.0));
    assertThat(by.totalUsd()).isEqualTo(35);
    assertThat(by.savingsUsd()).isCloseTo(85, within(1e-9));
    assertThat(SpendOverTime.ByCapacityType.of(List.of()).usd())
        .containsExactly(Map.entry(CapacityType.SPOT, 0.0), Map.entry(CapacityType.ON_DEMAND, 0.0));
    Charges.JobCharge unknown = new Charges.JobCharge(5, Double.NaN, 1, Set.of(CapacityType.SPOT), Set.of("x"),
        Map.of(CapacityType.SPOT, 5.0));
    assertThat(SpendOverTime.ByCapacityType.of(List.of(spot, unknown)).savingsUsd()).isNaN();
  }
}
