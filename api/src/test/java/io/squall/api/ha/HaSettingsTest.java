package io.squall.api.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micronaut.context.exceptions.ConfigurationException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What start-up refuses before a controller stands by or leads. */
class HaSettingsTest {
  private static final String PG = "jdbc:postgresql://db/squall";

  @Test
  void h2IsRefusedNamingTheKeys() {
    assertThatThrownBy(() -> settings("jdbc:h2:file:/tmp/x;MODE=PostgreSQL", 5000, 1000, "http://10.0.1.5:6820"))
        .isInstanceOf(ConfigurationException.class)
        .hasMessageContaining("squall.ha.enabled needs PostgreSQL")
        .hasMessageContaining("datasources.default.url is 'jdbc:h2:file:/tmp/x;MODE=PostgreSQL'");
  }

  @Test
  void aRenewalIntervalThatCouldLetTheLeaseLapseIsRefused() {
    assertThatThrownBy(() -> settings(PG, 5000, 3000, "http://10.0.1.5:6820"))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("squall.ha.renew-interval");
    assertThatThrownBy(() -> settings(PG, 500, 100, "http://10.0.1.5:6820"))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("squall.ha.lease-ttl must be at least 1s");
  }

  @Test
  void theAdvertisedAddressIsOneAddressClientsCanReach() {
    assertThatThrownBy(() -> settings(PG, 5000, 1000, null))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("squall.ha.advertise-url");
    assertThatThrownBy(() -> settings(PG, 5000, 1000, "http://a:1,http://b:2"))
        .isInstanceOf(ConfigurationException.class).hasMessageContaining("'http://a:1,http://b:2'");
    assertThat(settings(PG, 5000, 1000, "http://10.0.1.5:6820/").advertiseUrl()).isEqualTo("http://10.0.1.5:6820");
  }

  @Test
  void withoutHaNothingIsChecked() {
    assertThat(new HaSettings(false, "jdbc:h2:mem:x", "", "", Duration.ZERO, Duration.ZERO, null, "127.0.0.1", 6820,
        false).enabled()).isFalse();
  }

  private static HaSettings settings(String url, long ttlMillis, long renewMillis, String advertise) {
    return new HaSettings(true, url, "", "", Duration.ofMillis(ttlMillis), Duration.ofMillis(renewMillis), advertise,
        "127.0.0.1", 6820, false);
  }
}
