package io.squall.providers.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.util.Map;
import org.junit.jupiter.api.Test;

class AwsSettingsTest {
  @Test
  void defaults() {
    AwsSettings s = AwsSettings.builder("us-east-1").subnet("us-east-1a", "subnet-1").imageId("ami-1").build();
    assertThat(s.agent()).isEqualTo(io.squall.core.provider.NodeAgent.defaults());
    assertThat(s.onDemandPrice("p5.48xlarge")).isEqualTo(98.32);
    assertThat(s.onDemandPrice("m7i.large")).isZero();
    assertThat(s.subnet("us-east-1a")).isEqualTo("subnet-1");
    assertThat(s.subnet("us-east-1b")).isNull();
    assertThat(s.credentials()).isNull();
    assertThat(s.endpoint()).isNull();
    assertThat(s.spotInterruptionsPerNodeHour()).isEmpty(); // the advisor's buckets, unless configured
  }

  /** The us-east-1 {@code Price} rows of simulator/src/main/resources/data/aws-p4d-p5-prices.csv, exactly. */
  @Test
  void theBuiltInTableIsTheCatalogsUsEast1OnDemandPrices() {
    assertThat(AwsSettings.DEFAULT_ON_DEMAND_PRICES).containsOnly(
        entry("p4d.24xlarge", 32.7726),
        entry("p4de.24xlarge", 40.96575),
        entry("p5.48xlarge", 98.32),
        entry("p5en.48xlarge", 84.8));
    AwsSettings s = AwsSettings.builder("us-east-1").subnet("us-east-1a", "subnet-1").imageId("ami-1").build();
    assertThat(s.onDemandPrice("p5e.48xlarge")).isZero(); // the catalog has no on-demand price for it
  }

  @Test
  void aSetPriceOverridesOrExtendsTheBuiltInTableAndKeepsTheRest() {
    AwsSettings s = AwsSettings.builder("us-east-1").subnet("us-east-1a", "subnet-1").imageId("ami-1")
        .onDemandPrice("p5.48xlarge", 55.04)
        .onDemandPrice("p5e.48xlarge", 110.0)
        .build();
    assertThat(s.onDemandPrice("p5.48xlarge")).isEqualTo(55.04);
    assertThat(s.onDemandPrice("p5e.48xlarge")).isEqualTo(110.0);
    assertThat(s.onDemandPrice("p4d.24xlarge")).isEqualTo(32.7726);
    assertThat(s.onDemandPrice("p5en.48xlarge")).isEqualTo(84.8);
    assertThat(AwsSettings.DEFAULT_ON_DEMAND_PRICES).containsEntry("p5.48xlarge", 98.32);

    AwsSettings replaced = AwsSettings.builder("us-east-1").subnet("us-east-1a", "subnet-1").imageId("ami-1")
        .onDemandPrices(Map.of("m7i.large", 0.1008)).build();
    assertThat(replaced.onDemandPrices()).containsOnly(entry("m7i.large", 0.1008));
  }

  @Test
  void efaTypesGetAnInterfaceOnEveryNetworkCardAndAConfiguredCountGoesOverTheTable() {
    assertThat(AwsSettings.DEFAULT_EFA_INTERFACES).containsOnly(
        entry("p4d.24xlarge", 4),
        entry("p4de.24xlarge", 4),
        entry("p5.48xlarge", 32),
        entry("p5e.48xlarge", 32),
        entry("p5en.48xlarge", 16));
    AwsSettings s = AwsSettings.builder("us-east-1").subnet("us-east-1a", "subnet-1").imageId("ami-1")
        .efaInterfaces("p5.48xlarge", 0)
        .efaInterfaces("trn1.32xlarge", 8)
        .build();
    assertThat(s.efaInterfaces("p5.48xlarge")).isZero();
    assertThat(s.efaInterfaces("trn1.32xlarge")).isEqualTo(8);
    assertThat(s.efaInterfaces("p5en.48xlarge")).isEqualTo(16);
    assertThat(s.efaInterfaces("m7i.large")).isZero();
  }

  @Test
  void aNegativeEfaCountIsRefused() {
    assertThatThrownBy(() -> AwsSettings.builder("us-east-1").subnet("a", "s").imageId("ami-1")
        .efaInterfaces("p5.48xlarge", -1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("aws: efa-interfaces of p5.48xlarge must be a count of network cards, 0 (no EFA) or more, not -1");
  }

  @Test
  void invalidSettingsAreRefused() {
    assertThatThrownBy(() -> AwsSettings.builder("us-east-1").imageId("ami-1").build())
        .hasMessageContaining("subnet");
    assertThatThrownBy(() -> AwsSettings.builder("us-east-1").subnet("a", "s").build())
        .hasMessageContaining("exactly one");
    assertThatThrownBy(() -> AwsSettings.builder("us-east-1").subnet("a", "s").imageId("ami-1")
        .launchTemplate("lt-1", null).build()).hasMessageContaining("exactly one");
    assertThatThrownBy(() -> AwsSettings.builder("us-east-1").subnet("a", "s").imageId("ami-1").maxSpotPrice(0.0)
        .build()).hasMessageContaining("spot");
    for (double bad : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> AwsSettings.builder("us-east-1").subnet("a", "s").imageId("ami-1")
          .onDemandPrice("p5.48xlarge", bad).build())
          .hasMessage("aws: on-demand price of p5.48xlarge must be a finite number >= 0");
      assertThatThrownBy(() -> AwsSettings.builder("us-east-1").subnet("a", "s").imageId("ami-1")
          .spotInterruptionsPerNodeHour("p5.48xlarge", bad).build())
          .hasMessage("aws: spot interruptions per node-hour of p5.48xlarge must be a finite number >= 0");
    }
  }

  @Test
  void longTokensAreHashedForEc2() {
    assertThat(AwsProvider.clientToken("launch-1")).isEqualTo("launch-1");
    assertThat(AwsProvider.clientToken("x".repeat(65))).hasSize(64).matches("[0-9a-f]{64}");
    assertThat(AwsProvider.clientToken("with space")).hasSize(64);
  }
}
