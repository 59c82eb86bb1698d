package io.squall.spot.metadata;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A metadata service on 127.0.0.1 (any free port): records every request and answers as the
 * subclass says. {@link #failWith} makes it fail the way a sick service does.
 */
public abstract class FakeMetadataServer implements AutoCloseable {
  /** One request as the server saw it. */
  record Request(String method, String path) {}

  private final HttpServer server;
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final AtomicInteger failures = new AtomicInteger();
  private volatile int failureStatus;
  private volatile String failurePath;

  FakeMetadataServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::dispatch);
    server.setExecutor(Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, getClass().getSimpleName());
      t.setDaemon(true);
      return t;
    }));
    server.start();
  }

  public URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The next {@code times} requests, whatever they are, are answered {@code status}. */
  void failWith(int status, int times) {
    failWith(status, times, null);
  }

  /** The next {@code times} requests for {@code path} (null: any) are answered {@code status}. */
  void failWith(int status, int times, String path) {
    failureStatus = status;
    failurePath = path;
    failures.set(times);
  }

  public long count(String method, String path) {
    return requests.stream().filter(r -> r.method().equals(method) && r.path().equals(path)).count();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  /** Answers one request that has got past {@link #failWith}. */
  abstract void handle(HttpExchange exchange, String method, String path) throws IOException;

  static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
  }

  private void dispatch(HttpExchange exchange) throws IOException {
    try (exchange) {
      exchange.getRequestBody().readAllBytes();
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getPath();
      requests.add(new Request(method, path));
      boolean failing = failurePath == null || failurePath.equals(path);
      if (failing && failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        respond(exchange, failureStatus, "<html>internal error</html>");
        return;
      }
      handle(exchange, method, path);
    }
  }
}
