package io.squall.api.scheduling;

import jakarta.inject.Singleton;

/**
 * Asks the scheduler loop for a cycle soon. A separate bean so that changes can wake the loop
 * without depending on it, and so that a wake during shutdown is a no-op rather than a reason to
 * create the loop again.
 */
@Singleton
public final class Wakeup {
  private volatile Runnable loop;

  void attach(Runnable wake) {
    loop = wake;
  }

  void detach() {
    loop = null;
  }

  public void wake() {
    Runnable l = loop;
    if (l != null) {
      l.run();
    }
  }
}
