package io.squall.providers.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.provider.ProviderException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GceNamesTest {
  @ParameterizedTest
  @ValueSource(strings = {"gpu-1", "a", "a3-node-0017"})
  void gceNamesAreInstanceNames(String name) {
    assertThat(GceNames.instanceName(name)).isEqualTo(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"GPU-1", "gpu_1", "1gpu", "gpu-", "gpu.1", "",
      "a123456789012345678901234567890123456789012345678901234567890123"})
  void otherNamesAreInvalid(String name) {
    assertThatThrownBy(() -> GceNames.instanceName(name)).isInstanceOfSatisfying(ProviderException.class,
        e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.INVALID));
  }

  @Test
  void labelValuesFollowGceRules() {
    assertThat(GceNames.labelValue("Launch:7/Retry.2")).isEqualTo("launch-7-retry-2");
    assertThat(GceNames.labelValue("ok_value-1")).isEqualTo("ok_value-1");
    String longToken = "x".repeat(100);
    assertThat(GceNames.labelValue(longToken)).hasSize(63).matches("[a-z0-9_-]+")
        .isNotEqualTo(GceNames.labelValue("x".repeat(99)));
    assertThat(GceNames.labelKey("Team")).isEqualTo("team");
    assertThat(GceNames.labelKey("9lives")).isEqualTo("k-9lives");
  }

  @Test
  void resourceNamesStayValidAndDistinct() {
    assertThat(GceNames.resourceName("squall", "contract-pg-1")).isEqualTo("squall-contract-pg-1");
    String a = GceNames.resourceName("squall", "prod-pg.1");
    String b = GceNames.resourceName("squall", "prod-pg-1");
    assertThat(a).matches(GceNames.RESOURCE_NAME).isNotEqualTo(b);
    assertThat(GceNames.resourceName("squall", "P".repeat(80))).matches(GceNames.RESOURCE_NAME);
    assertThat(GceNames.resourceName("squall", "pg-")).matches(GceNames.RESOURCE_NAME);
  }

  @Test
  void requestIdsAreUuidsFixedByTheToken() {
    assertThat(GceNames.requestId("launch-1")).isEqualTo(GceNames.requestId("launch-1"))
        .isNotEqualTo(GceNames.requestId("launch-2"))
        .matches("[0-9a-f]{8}-[0-9a-f]{4}-3[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  }

  @Test
  void lastSegmentOfUrls() {
    assertThat(GceNames.lastSegment("https://www.googleapis.com/compute/v1/projects/p/zones/us-central1-a"))
        .isEqualTo("us-central1-a");
    assertThat(GceNames.lastSegment("a3-highgpu-8g")).isEqualTo("a3-highgpu-8g");
  }
}
