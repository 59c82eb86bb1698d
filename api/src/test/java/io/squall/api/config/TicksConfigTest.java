package io.squall.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@code squall.ticks}: auto (the default) or manual; anything else is refused, naming the key. */
class TicksConfigTest {
  @Test
  void autoByDefaultManualWhenSaidAndAMisspeltValueRefused() {
    SquallConfig config = new SquallConfig();
    assertThat(config.manualTicks()).isFalse();
    config.setTicks("manual");
    assertThat(config.manualTicks()).isTrue();
    config.setTicks("manul");
    assertThatThrownBy(config::manualTicks).hasMessage("squall.ticks: auto or manual, not 'manul'");
  }
}
