package io.squall.api;

import io.micronaut.runtime.Micronaut;

/** Starts the Squall controller. */
public final class Application {
  private Application() {}

  public static void main(String[] args) {
    Micronaut.run(Application.class, args);
  }
}
