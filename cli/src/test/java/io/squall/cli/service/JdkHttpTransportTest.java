package io.squall.cli.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The https transport's client (the JDK's HttpClient), here over plain http against a real server. */
class JdkHttpTransportTest {
  private final CountDownLatch released = new CountDownLatch(1);
  private final ExecutorService handlers = Executors.newCachedThreadPool();
  private final HttpServer server;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  JdkHttpTransportTest() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(handlers);
    server.createContext("/whole", exchange -> {
      byte[] body = "{\"jobs\":[{\"job_id\":\"1\"},{\"job_id\":\"2\"}]}".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    });
    // Starts its answer, then falls silent: a controller stopped or cut off in the middle of it.
    server.createContext("/stalls", exchange -> {
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      out.write("{\"jobs\":[{\"job_id\":\"1\"},".getBytes(StandardCharsets.UTF_8));
      out.flush();
      try {
        released.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    released.countDown();
    server.stop(0);
    handlers.shutdownNow();
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  private static List<String> ids(java.io.InputStream in) throws IOException {
    return JsonAnswer.list(in, "jobs", a -> a.requiredString("job_id"));
  }

  @Test
  void aWholeAnswerIsRead() throws Exception {
    Transport.Reply<List<String>> r = new JdkHttpTransport(http, Duration.ofSeconds(30))
        .exchange("GET", uri("/whole"), Map.of(), null, JdkHttpTransportTest::ids);
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.value()).containsExactly("1", "2");
  }

  /**
   * The JDK's request timeout ends with the headers (JDK-8258397); a silent body must end too.
   * Without the limit the read waits for ever, deaf to interrupts: the timeout runs the test in a
   * thread of its own, so that it fails rather than hangs.
   */
  @Test
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void anAnswerThatFallsSilentEndsAsATimeoutNotAHang() {
    JdkHttpTransport transport = new JdkHttpTransport(http, Duration.ofMillis(300));
    assertThatThrownBy(() -> transport.exchange("GET", uri("/stalls"), Map.of(), null, JdkHttpTransportTest::ids))
        .isInstanceOfSatisfying(Transport.Timeout.class, t -> assertThat(t.connecting()).isFalse());
  }
}
