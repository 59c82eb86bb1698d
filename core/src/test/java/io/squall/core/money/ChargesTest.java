package io.squall.core.money;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChargesTest {
  private static final Instant T0 = Instant.parse("2026-11-25T08:00:00Z");
  private static final Offering SPOT = new Offering("p5.48xlarge", "us-east-1a", CapacityType.SPOT, 60,
      Availability.AVAILABLE);
  private static final Offering ON_DEMAND = new Offering("p5.48xlarge", "us-east-1b", CapacityType.ON_DEMAND, 240,
      Availability.AVAILABLE);

  private static Instant at(long minutes) {
    return T0.plus(Duration.ofMinutes(minutes));
  }

  private static PriceSeries prices() {
    PriceSeries s = new PriceSeries();
    s.observe(SPOT.key(), 60, at(0)); // $1 a minute
    s.observe(ON_DEMAND.key(), 240, at(0)); // $4 a minute
    return s;
  }

  @Test
  void aNodeRelaunchedOnDemandAfterAnInterruptionBillsBothInstancesAndConservationHolds() {
    // node-1: spot from 0 to 30 (job 1 from 5, interrupted at 30), then on demand from 40 to 100
    // (job 1 again from 40 to 90, idle until 100). node-2: on demand 0..60, job 2 holds half of it 10..60.
    List<Charges.Billing> bills = List.of(
        new Charges.Billing("i-1", "node-1", SPOT, 8, at(0), at(30)),
        new Charges.Billing("i-2", "node-1", ON_DEMAND, 8, at(40), at(100)),
        new Charges.Billing("i-3", "node-2", ON_DEMAND, 8, at(0), at(60)));
    Map<String, List<CostSplit.Holding>> holds = Map.of(
        "node-1", List.of(new CostSplit.Holding("1", at(5), at(30), 1), new CostSplit.Holding("1", at(40), at(90), 1)),
        "node-2", List.of(new CostSplit.Holding("2", at(10), at(60), 0.5)));
    Charges.Result r = Charges.of(bills, holds, prices(), at(0), at(200));

    assertThat(r.billed()).isCloseTo(30 + 60 * 4 + 60 * 4, within(1e-9));
    Charges.JobCharge one = r.jobs().get("1");
    assertThat(one.usd()).isCloseTo(25 + 50 * 4, within(1e-9));
    assertThat(one.onDemandUsd()).isCloseTo(75 * 4, within(1e-9)); // the same 75 min at the on-demand price
    assertThat(one.gpuHours()).isCloseTo(75 / 60.0 * 8, within(1e-9));
    assertThat(one.capacityTypes()).containsExactlyInAnyOrder(CapacityType.SPOT, CapacityType.ON_DEMAND);
    assertThat(one.instanceTypes()).containsExactly("p5.48xlarge");
    assertThat(one.usdByCapacityType()).containsOnly(Map.entry(CapacityType.SPOT, 25.0),
        Map.entry(CapacityType.ON_DEMAND, 50.0 * 4));
    assertThat(r.jobs().get("2").usd()).isCloseTo(50 * 4 * 0.5, within(1e-9));
    assertThat(r.jobs().get("2").gpuHours()).isCloseTo(50 / 60.0 * 4, within(1e-9));
    assertThat(r.overheadByNode().get("node-1")).isCloseTo(5 + 10 * 4, within(1e-9)); // boot 0..5, idle 90..100
    assertThat(r.overheadByNode().get("node-2")).isCloseTo(10 * 4 + 50 * 4 * 0.5, within(1e-9));
    assertThat(r.jobsUsd() + r.overhead()).isCloseTo(r.billed(), within(1e-9));
    assertThat(r.onDemandJobsUsd()).isCloseTo(50 * 4 + 100, within(1e-9));
  }

  @Test
  void aPeriodCountsOnlyWhatWasBilledWithinItAndAnInstanceStillRunningIsBilledToItsEnd() {
    List<Charges.Billing> bills = List.of(new Charges.Billing("i-1", "node-1", SPOT, 8, at(0), null));
    Map<String, List<CostSplit.Holding>> holds = Map.of("node-1", List.of(new CostSplit.Holding("1", at(0), at(50), 1)));
    Charges.Result r = Charges.of(bills, holds, prices(), at(20), at(60));
    assertThat(r.billed()).isCloseTo(40, within(1e-9));
    assertThat(r.jobs().get("1").usd()).isCloseTo(30, within(1e-9));
    assertThat(r.overhead()).isCloseTo(10, within(1e-9));
  }

  @Test
  void anOfferingWithNoPriceInTheSeriesIsPricedAtItsLaunchPriceAndHasNoOnDemandFigure() {
    Offering other = new Offering("a3-highgpu-8g", "us-central1-a", CapacityType.SPOT, 30, Availability.AVAILABLE);
    List<Charges.Billing> bills = List.of(new Charges.Billing("i-1", "node-1", other, 8, at(0), at(60)));
    Map<String, List<CostSplit.Holding>> holds = Map.of("node-1", List.of(new CostSplit.Holding("1", at(0), at(60), 1)));
    Charges.Result r = Charges.of(bills, holds, prices(), at(0), at(60));
    assertThat(r.jobs().get("1").usd()).isCloseTo(30, within(1e-9));
    assertThat(r.jobs().get("1").onDemandUsd()).isNaN();
  }

  @Test
  void lostWorkCostsThePriceInForcePerGpu() {
    assertThat(Charges.lostWorkUsd(3600 * 4, SPOT, 8, at(10), prices())).isCloseTo(60 * 4 / 8.0, within(1e-9));
  }

  @Test
  void aJobsShareIsItsGpusOrTheWholeNodeWhenExclusive() {
    assertThat(CostSplit.share(2, 8, 16, 192, false)).isEqualTo(0.25);
    assertThat(CostSplit.share(2, 8, 16, 192, true)).isEqualTo(1);
    assertThat(CostSplit.share(0, 0, 4, 16, false)).isEqualTo(0.25);
  }
}
