package io.squall.providers.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AwsSettingsTest {
  @Test
  void defaults() {
    AwsSettings s = AwsSettings.builder("us-east-1").subnet("us-east-1a", "subnet-1").imageId("ami-1").build();
    assertThat(s.agentCommand()).isEqualTo("/opt/squall/bin/squall-agent");
    assertThat(s.onDemandPrice("p5.48xlarge")).isEqualTo(98.32);
    assertThat(s.onDemandPrice("m7i.large")).isZero();
    assertThat(s.subnet("us-east-1a")).isEqualTo("subnet-1");
    assertThat(s.subnet("us-east-1b")).isNull();
    assertThat(s.credentials()).isNull();
    assertThat(s.endpoint()).isNull();
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
  }

  @Test
  void longTokensAreHashedForEc2() {
    assertThat(AwsProvider.clientToken("launch-1")).isEqualTo("launch-1");
    assertThat(AwsProvider.clientToken("x".repeat(65))).hasSize(64).matches("[0-9a-f]{64}");
    assertThat(AwsProvider.clientToken("with space")).hasSize(64);
  }
}
