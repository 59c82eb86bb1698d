package io.squall.core.provision;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.money.PriceCaps;
import io.squall.core.money.PricePoint;
import io.squall.core.money.PriceSeries;
import io.squall.core.provider.CapacityType;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The prices per GPU-hour a partition's policy may buy at: {@code --test-only}'s range and a budget's worst case. */
class CapacityPolicyPricesTest {
  private static final Instant T0 = Instant.parse("2026-11-26T00:00:00Z");
  private static final CapacityPolicy POLICY = CapacityPolicy.defaults("p5.48xlarge").withCaps(PriceCaps.NONE, 8);

  private static PriceSeries series(PricePoint... points) {
    return PriceSeries.of(List.of(points));
  }

  private static PricePoint price(String offering, double usdPerHour) {
    return new PricePoint(offering, usdPerHour, T0, null);
  }

  @Test
  void theWorstCaseIsTheDearestPricePerCapacityTypeAndInfiniteBeforeAnyIsKnown() {
    assertThat(POLICY.worstPerGpuHour(series())).isEqualTo(
        Map.of(CapacityType.SPOT, Double.POSITIVE_INFINITY, CapacityType.ON_DEMAND, Double.POSITIVE_INFINITY));
    PriceSeries known = series(price("p5.48xlarge/use1-az1/SPOT", 24.0), price("p5.48xlarge/use1-az2/SPOT", 32.0),
        price("p5.48xlarge/use1-az1/ON_DEMAND", 98.32), price("p4d.24xlarge/use1-az1/ON_DEMAND", 200.0),
        new PricePoint("p5.48xlarge/use1-az3/SPOT", 80.0, T0.minusSeconds(60), T0)); // ended: not in force
    assertThat(POLICY.worstPerGpuHour(known)).isEqualTo(Map.of(CapacityType.SPOT, 4.0, CapacityType.ON_DEMAND, 12.29));
    assertThat(POLICY.gpuHourPrices(known)).contains(new CapacityPolicy.GpuHourPrices(3.0, 12.29));
    // A policy that buys spot only has no on-demand worst case; a cap leaves out what is above it.
    assertThat(POLICY.withSpot(SpotPolicy.SPOT).worstPerGpuHour(known)).isEqualTo(Map.of(CapacityType.SPOT, 4.0));
    assertThat(POLICY.withCaps(new PriceCaps(3.5, null), 8).worstPerGpuHour(known))
        .isEqualTo(Map.of(CapacityType.SPOT, 3.0, CapacityType.ON_DEMAND, 12.29));
  }

  @Test
  void aTypeNoOfferingIsPricedForOnceOthersAreIsLeftOut() {
    // The local provider without a spot price sells on-demand only: spot has no worst case, and
    // a job that may run on either is priced at on-demand's (not kept waiting forever).
    PriceSeries onDemandOnly = series(price("p5.48xlarge/local/ON_DEMAND", 36.0));
    assertThat(POLICY.worstPerGpuHour(onDemandOnly)).isEqualTo(Map.of(CapacityType.ON_DEMAND, 4.5));
  }
}
