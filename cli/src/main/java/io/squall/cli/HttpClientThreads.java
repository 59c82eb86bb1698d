package io.squall.cli;

import java.time.Duration;

/**
 * Ends the JDK HttpClient's selector threads before the JVM exits. Such a thread sits in a native
 * epoll wait, and a JVM on its way out waits up to 300 ms for every thread in native code to
 * return (HotSpot's VM_Exit::wait_for_threads_in_native_to_block): more than the rest of a verb's
 * run from a class-data sharing archive. Java 17's HttpClient has no close(); an interrupt makes the
 * thread's loop end (it checks its interrupt status after each wake-up, and the interrupt wakes the
 * selector). Threads are found by the JDK's name for them; should that change, exit is only slower.
 */
final class HttpClientThreads {
  private static final Duration JOIN = Duration.ofMillis(100);

  private HttpClientThreads() {}

  static void stop() {
    ThreadGroup group = Thread.currentThread().getThreadGroup();
    Thread[] threads = new Thread[group.activeCount() + 8];
    int n = group.enumerate(threads);
    for (int i = 0; i < n; i++) {
      Thread t = threads[i];
      if (t != null && t.isDaemon() && t.getName().startsWith("HttpClient-") && t.getName().endsWith("-SelectorManager")) {
        t.interrupt();
        try {
          t.join(JOIN.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
