package io.squall.providers.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The price list GCE offerings are priced from: built in, and what configuration sets over it. */
class GcpSettingsTest {
  private static GcpSettings.Builder builder() {
    return GcpSettings.builder("squall-test", "us-central1", List.of("us-central1-a")).sourceImage("img");
  }

  /**
   * The newest snapshot (2026-07-30) of the Cyclenerd price tables, rounded to cents:
   * a3-highgpu-8g's us-central1 row, a3-megagpu-8g's us-east4 row (it has none in us-central1).
   */
  @Test
  void theBuiltInListIsTheNewestSnapshotsPrices() {
    assertThat(GcpSettings.DEFAULT_PRICES).containsOnly(
        entry("a3-highgpu-8g", new MachinePrice(88.49, 50.61)),
        entry("a3-megagpu-8g", new MachinePrice(92.94, 23.28)));
    GcpSettings s = builder().build();
    assertThat(s.prices()).isEqualTo(GcpSettings.DEFAULT_PRICES);
    assertThat(s.price("n2-standard-8")).isEqualTo(MachinePrice.UNKNOWN);
  }

  @Test
  void aSetPriceReplacesOnlyItsOwnHalfAndUnlistedTypesAreAdded() {
    GcpSettings s = builder()
        .onDemandPrice("a3-highgpu-8g", 80.0)
        .spotPrice("a3-megagpu-8g", 20.5)
        .onDemandPrice("a2-highgpu-8g", 29.39)
        .build();
    assertThat(s.price("a3-highgpu-8g")).isEqualTo(new MachinePrice(80.0, 50.61));
    assertThat(s.price("a3-megagpu-8g")).isEqualTo(new MachinePrice(92.94, 20.5));
    assertThat(s.price("a2-highgpu-8g")).isEqualTo(new MachinePrice(29.39, 0)); // spot unknown
    assertThat(GcpSettings.DEFAULT_PRICES.get("a3-highgpu-8g")).isEqualTo(new MachinePrice(88.49, 50.61));
  }

  @Test
  void aPriceIsFiniteAndNotNegative() {
    for (double bad : new double[] {-0.01, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> builder().onDemandPrice("a3-highgpu-8g", bad))
          .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("prices must be finite and >= 0");
      assertThatThrownBy(() -> builder().spotPrice("a3-highgpu-8g", bad))
          .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("prices must be finite and >= 0");
    }
  }
}
