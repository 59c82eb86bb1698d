package io.squall.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.cli.service.ServiceAddress;
import io.squall.cli.service.SquallClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The HttpClient of a verb against an https service leaves a selector thread in native code, which holds the JVM's exit for
 * 300 ms; {@link HttpClientThreads#stop} ends it. Runs in a thread group of its own, so only this
 * test's client is touched.
 */
class HttpClientThreadsTest {
  @Test
  void theClientsSelectorThreadEndsBeforeExit() throws Exception {
    AtomicReference<List<Thread>> before = new AtomicReference<>();
    AtomicReference<List<Thread>> after = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    ThreadGroup group = new ThreadGroup("verb");
    Thread verb = new Thread(group, () -> {
      try {
        // The https client starts its selector thread when it is built, before any request.
        new SquallClient(new ServiceAddress("https://127.0.0.1:1", "tok", Path.of("/x")));
        before.set(selectors(group));
        HttpClientThreads.stop();
        after.set(selectors(group));
      } catch (Throwable e) {
        failure.set(e);
      }
    });
    verb.start();
    verb.join();

    assertThat(failure.get()).isNull();
    assertThat(before.get()).as("the JDK's selector thread, by the name stop() looks for").isNotEmpty();
    assertThat(after.get()).isEmpty();
  }

  private static List<Thread> selectors(ThreadGroup group) {
    Thread[] threads = new Thread[group.activeCount() + 8];
    int n = group.enumerate(threads);
    List<Thread> alive = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (threads[i].getName().endsWith("-SelectorManager") && threads[i].isAlive()) {
        alive.add(threads[i]);
      }
    }
    return alive;
  }
}
