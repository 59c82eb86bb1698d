package io.squall.api.web;

import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Primary;
import jakarta.inject.Singleton;
import java.time.InstantSource;

/** The controller's clock, injected everywhere so tests can replace it. */
@Factory
public class ClockFactory {
  @Singleton
  @Primary
  InstantSource clock() {
    return InstantSource.system();
  }
}
