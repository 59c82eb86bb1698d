package io.squall.core.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CostSplitTest {
  private static final Instant T0 = Instant.parse("2026-11-25T08:00:00Z");
  private static final String SPOT = "p5.48xlarge/us-east-1a/SPOT";

  private static Instant at(long minutes) {
    return T0.plus(Duration.ofMinutes(minutes));
  }

  private static PriceSeries prices() {
    PriceSeries s = new PriceSeries();
    s.observe(SPOT, 60, at(0)); // $1 a minute
    s.observe(SPOT, 120, at(60)); // then $2 a minute
    return s;
  }

  @Test
  void aJobPaysForTheTimeItHoldsTheNodeItsBootIncludedAndTheRestIsOverhead() {
    // Launched at 0 for job 1, which waits for the boot and runs until 30; idle until 40.
    CostSplit.Split s = CostSplit.of(SPOT, at(0), at(40), List.of(new CostSplit.Holding("1", at(0), at(30), 1)),
        prices());
    assertThat(s.jobs()).containsOnlyKeys("1");
    assertThat(s.jobs().get("1")).isCloseTo(30, within(1e-9));
    assertThat(s.overhead()).isCloseTo(10, within(1e-9));
    assertThat(s.billed()).isCloseTo(40, within(1e-9));
  }

  @Test
  void jobsSharingANodePayTheirShareAtThePriceInForceAndTheFreeGpusAreOverhead() {
    List<CostSplit.Holding> holds = List.of(new CostSplit.Holding("1", at(30), at(90), 0.5),
        new CostSplit.Holding("2", at(50), at(70), 0.25));
    CostSplit.Split s = CostSplit.of(SPOT, at(30), at(90), holds, prices());
    // Job 1: 30 min at $1 + 30 min at $2, half of it. Job 2: 10 min at $1 + 10 at $2, a quarter.
    assertThat(s.jobs().get("1")).isCloseTo(0.5 * (30 + 60), within(1e-9));
    assertThat(s.jobs().get("2")).isCloseTo(0.25 * (10 + 20), within(1e-9));
    assertThat(s.billed()).isCloseTo(30 + 60, within(1e-9));
    assertThat(s.jobs().values().stream().mapToDouble(Double::doubleValue).sum() + s.overhead())
        .isCloseTo(s.billed(), within(1e-9));
  }

  @Test
  void holdsOutsideTheInstancesLifeAreNotItsAndOverbookingIsNotBilledTwice() {
    List<CostSplit.Holding> holds = List.of(new CostSplit.Holding("1", at(-10), at(10), 1),
        new CostSplit.Holding("2", at(0), at(10), 1));
    CostSplit.Split s = CostSplit.of(SPOT, at(0), at(10), holds, prices());
    assertThat(s.jobs().get("1")).isCloseTo(5, within(1e-9));
    assertThat(s.jobs().get("2")).isCloseTo(5, within(1e-9));
    assertThat(s.overhead()).isZero();
    assertThat(s.billed()).isCloseTo(10, within(1e-9));
  }
}
