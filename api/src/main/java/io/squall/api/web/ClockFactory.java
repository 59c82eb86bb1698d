package io.squall.api.web;

import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Primary;
import io.squall.api.config.SquallConfig;
import io.squall.core.time.ManualClock;
import jakarta.inject.Singleton;
import java.time.InstantSource;

/**
 * The controller's clock, injected everywhere: the system's, or with {@code squall.ticks: manual}
 * a {@link ManualClock} that tests move.
 */
@Factory
public class ClockFactory {
  @Singleton
  @Primary
  InstantSource clock(SquallConfig config) {
    return config.manualTicks() ? new ManualClock(InstantSource.system().instant()) : InstantSource.system();
  }
}
