package io.squall.cli;

import java.time.Duration;

/** How a verb waits between polls; tests pass one that returns at once and records the pauses. */
@FunctionalInterface
interface Sleeper {
  Sleeper SYSTEM = pause -> Thread.sleep(pause.toMillis());

  void sleep(Duration pause) throws InterruptedException;
}
