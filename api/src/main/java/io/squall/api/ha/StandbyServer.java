package io.squall.api.ha;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.squall.agent.ControllerAddresses;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * What a standby answers on the controller's port while it waits for the lease: {@code /health}
 * and {@code /ha} say it stands by and where the leader is (200); every other request gets 503
 * with {@code X-Squall-Role: standby} and the leader's address in {@code X-Squall-Leader} and in
 * the JSON error, so that clients
 * given several addresses go there. It holds no state and checks no token: the leader's address
 * is no secret. Plain HTTP only; with TLS configured a standby does not listen at all, and
 * clients move on to the next address as they do from a dead one.
 */
final class StandbyServer implements AutoCloseable {
  private final HttpServer server;
  private volatile ControllerLease.Holder leader;

  private StandbyServer(HttpServer server) {
    this.server = server;
  }

  /** @throws IOException when the port cannot be bound (another process has it) */
  static StandbyServer start(String host, int port) throws IOException {
    HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 50);
    StandbyServer standby = new StandbyServer(http);
    http.createContext("/", standby::answer);
    http.setExecutor(Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "squall-standby-http");
      t.setDaemon(true);
      return t;
    }));
    http.start();
    return standby;
  }

  /** The lease's holder as last read; null when none has ever led. */
  void leader(ControllerLease.Holder holder) {
    this.leader = holder;
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      ControllerLease.Holder h = leader;
      String url = h == null || !h.live() ? null : h.url();
      String path = exchange.getRequestURI().getPath();
      String body;
      int status;
      if (path.equals("/health") || path.equals("/ha")) {
        status = 200;
        body = "{\"status\":\"UP\",\"role\":\"standby\",\"leader\":" + quoted(url) + ",\"term\":"
            + (url == null ? "null" : Long.toString(h.term())) + "}";
      } else {
        status = 503;
        String error = url != null ? "this controller stands by; the leader is " + url
            : "this controller stands by and no controller leads right now; one takes over within the lease time";
        body = "{\"error\":" + quoted(error) + ",\"leader\":" + quoted(url) + "}";
        exchange.getResponseHeaders().set("Retry-After", "1");
        exchange.getResponseHeaders().set(ControllerAddresses.ROLE_HEADER, "standby");
        if (url != null) {
          exchange.getResponseHeaders().set(ControllerAddresses.LEADER_HEADER, url);
        }
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  /** A JSON string; the addresses were checked at start-up (no quotes or control characters). */
  private static String quoted(String s) {
    return s == null ? "null" : "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
