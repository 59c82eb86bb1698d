package io.squall.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.Offering;
import io.squall.core.provider.SpotPrice;
import io.squall.core.time.ManualClock;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Prices over time: a price history read into a schedule, and a simulated cloud charging by it. */
class PriceHistoryTest {
  private static final String HISTORY = """
      snapshot_date,commit,machine_type,gpu_type,gpu_count,region,hour_ondemand_usd,hour_spot_usd
      2025-03-13,c2,a3-highgpu-8g,h100-80gb,8,us-central1,88.49,20.42
      2025-03-13,c2,a3-highgpu-8g,h100-80gb,8,europe-west4,93.00,30.00
      2025-01-30,c1,a3-highgpu-8g,h100-80gb,8,us-central1,88.49,35.40
      2025-01-30,c1,a3-megagpu-8g,h100-80gb,8,us-central1,99.00,
      """;
  private static final Instant MARCH_13 = Instant.parse("2025-03-13T00:00:00Z");
  private static final String SPOT_A = "a3-highgpu-8g/us-central1-a/SPOT";

  private static PriceSchedule schedule() {
    return PriceHistory.parse(HISTORY, "h.csv", Set.of("a3-highgpu-8g"), "us-central1",
        List.of("us-central1-a", "us-central1-b"));
  }

  @Test
  void eachSnapshotsPricesAreInForceFromItsDateInEveryZoneGiven() {
    PriceSchedule s = schedule();
    assertThat(s.offerings()).extracting(Offering::key).containsExactlyInAnyOrder(
        "a3-highgpu-8g/us-central1-a/ON_DEMAND", SPOT_A, "a3-highgpu-8g/us-central1-b/ON_DEMAND",
        "a3-highgpu-8g/us-central1-b/SPOT");
    assertThat(s.at(SPOT_A, MARCH_13.minusMillis(1))).isEqualTo(35.40);
    assertThat(s.at(SPOT_A, MARCH_13)).isEqualTo(20.42);
    // Before the history: its first price; after its last snapshot: the last.
    assertThat(s.at(SPOT_A, Instant.parse("2017-10-01T00:00:00Z"))).isEqualTo(35.40);
    assertThat(s.at(SPOT_A, Instant.parse("2030-01-01T00:00:00Z"))).isEqualTo(20.42);
    assertThat(s.since(SPOT_A, MARCH_13.plusSeconds(60))).isEqualTo(MARCH_13);
    // 12 h either side of the change: half at each price.
    assertThat(s.dollars(SPOT_A, MARCH_13.minus(Duration.ofHours(12)), MARCH_13.plus(Duration.ofHours(12))))
        .isCloseTo(12 * 35.40 + 12 * 20.42, offset(1e-9));
    assertThat(s.cheapestDollars(List.of(SPOT_A, "a3-highgpu-8g/us-central1-a/ON_DEMAND"), MARCH_13,
        MARCH_13.plus(Duration.ofHours(2)))).isCloseTo(2 * 20.42, offset(1e-9));
    assertThat(s.cheapestDollars(List.of(), MARCH_13, MARCH_13.plusSeconds(3600))).isZero();
    assertThat(PriceHistory.isHistory(HISTORY)).isTrue();
    assertThat(PriceHistory.isHistory("InstanceType,Price,SpotPrice,Region,AvailabilityZone\n")).isFalse();
  }

  @Test
  void aBadRowIsRefusedNamingItsLineAndField() {
    String bad = HISTORY.replace("2025-01-30,c1,a3-highgpu-8g,h100-80gb,8,us-central1,88.49,35.40",
        "2025-01-30,c1,a3-highgpu-8g,h100-80gb,8,us-central1,88.49,cheap");
    assertThatThrownBy(() -> PriceHistory.parse(bad, "h.csv", Set.of("a3-highgpu-8g"), "us-central1", List.of("z")))
        .hasMessage("h.csv line 4, field hour_spot_usd: 'cheap' is not a price in US dollars per hour");
    String badDate = HISTORY.replace("2025-03-13,c2,a3-highgpu-8g,h100-80gb,8,us-central1", "13/03/2025,c2,a3-highgpu-8g,"
        + "h100-80gb,8,us-central1");
    assertThatThrownBy(() -> PriceHistory.parse(badDate, "h.csv", Set.of("a3-highgpu-8g"), "us-central1",
        List.of("z"))).hasMessage("h.csv line 2, field snapshot_date: '13/03/2025' is not a date (yyyy-MM-dd)");
    assertThatThrownBy(() -> PriceHistory.parse("snapshot_date,machine_type\n", "h.csv", Set.of("x"), "r",
        List.of("z"))).hasMessageStartingWith("h.csv: no region column");
    assertThatThrownBy(() -> PriceHistory.parse(HISTORY + "2025-01-01,c0,a3\n", "h.csv", Set.of("x"), "r",
        List.of("z"))).hasMessage("h.csv line 6: 3 fields, the header has 8");
  }

  /** The cloud lists, charges and reports spot prices in force at its clock. */
  @Test
  void aSimulatedCloudChargesThePricesInForceWhileAnInstanceRuns() {
    PriceSchedule s = schedule();
    ManualClock clock = new ManualClock(MARCH_13.minus(Duration.ofHours(12)));
    SimulatedProvider cloud = new SimulatedProvider(clock, s.offerings(), new SplittableRandom(1)).prices(s);
    Offering spot = cloud.offerings(List.of("a3-highgpu-8g")).stream().filter(o -> o.key().equals(SPOT_A))
        .findFirst().orElseThrow();
    assertThat(spot.pricePerHour()).isEqualTo(35.40);
    cloud.launch(new LaunchRequest("c", "gpu", List.of(new NodeLaunch(new Node("n-1", 8, "h100", 192, 1, Set.of(), "pg0",
        NodeState.CLOUD), "http://c", "t")), 1, spot, "c-pg0", Map.of(), "token"));
    clock.set(MARCH_13.plus(Duration.ofHours(12)));
    assertThat(cloud.billedDollars()).isCloseTo(12 * 35.40 + 12 * 20.42, offset(1e-9));
    assertThat(cloud.spotPrices(List.of("a3-highgpu-8g"))).filteredOn(p -> p.zone().equals("us-central1-a"))
        .extracting(SpotPrice::pricePerHour).containsExactly(20.42);
    assertThat(cloud.cheapestSpotDollars(List.of("a3-highgpu-8g"), MARCH_13, MARCH_13.plusSeconds(3600)))
        .isCloseTo(20.42, offset(1e-9));
    assertThat(cloud.offerings(List.of("a3-highgpu-8g"))).filteredOn(o -> o.capacityType() == CapacityType.SPOT)
        .extracting(Offering::pricePerHour).containsOnly(20.42);
  }

  @Test
  void theBundledGcpHistoryReads() throws Exception {
    String text;
    try (InputStream in = PriceHistory.class.getResourceAsStream(PriceHistory.BUNDLED_GCP)) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    PriceSchedule s = PriceHistory.parse(text, PriceHistory.BUNDLED_GCP, Set.of("a3-highgpu-8g"), "us-central1",
        List.of("us-central1-a"));
    // The spot price fell from about $35 to about $20 an hour on 2025-03-13.
    assertThat(s.at(SPOT_A, MARCH_13.minusSeconds(1))).isCloseTo(35.40, offset(0.01));
    assertThat(s.at(SPOT_A, MARCH_13)).isCloseTo(20.42, offset(0.01));
  }
}
