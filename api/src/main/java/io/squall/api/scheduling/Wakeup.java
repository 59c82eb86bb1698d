package io.squall.api.scheduling;

import jakarta.inject.Singleton;

/**
 * Asks for a scheduler cycle soon (the {@link Ticker} runs it). A separate bean so that changes
 * can wake the scheduler without depending on it, and so that a wake during shutdown is a no-op
 * rather than a reason to create the ticker again. {@link #wake} returns at once: changes call it
 * on the state writer's thread as they commit ({@code Batch.onCommit}).
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
