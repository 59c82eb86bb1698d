package io.squall.cli.fake;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A stand-in for the Squall service on 127.0.0.1: answers each {@code METHOD PATH} with the JSON
 * a test gave it (docs/rest-api.md shapes) and records every request, so tests can check both
 * what a verb sent and what it printed. Unknown routes answer 404 with an error body, like the
 * service.
 */
public final class FakeSquall implements AutoCloseable {
  /** One request as the service saw it; the query is decoded. */
  public record Request(String method, String path, Map<String, String> query, String body,
      Map<String, List<String>> headers) {
    public String header(String name) {
      for (Map.Entry<String, List<String>> e : headers.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name)) {
          return e.getValue().get(0);
        }
      }
      return null;
    }
  }

  private record Answer(int status, String body) {}

  private final HttpServer server;
  private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
  /** The answers still to give for a route, in order; the last one is given from then on. */
  private final Map<String, Deque<Answer>> answers = new ConcurrentHashMap<>();
  /** Set: this fake is a standby controller, and answers everything 503 naming this leader. */
  private volatile String leader;

  private FakeSquall(HttpServer server) {
    this.server = server;
  }

  public static FakeSquall start() {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      FakeSquall fake = new FakeSquall(server);
      server.createContext("/", fake::handle);
      server.start();
      return fake;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** An address where nothing listens: a port that was free a moment ago. */
  public static String deadUrl() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "http://127.0.0.1:" + s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /**
   * From now on answers every request as a standby controller does: 503 with {@code X-Squall-Role:
   * standby} and {@code X-Squall-Leader} naming {@code leaderUrl}.
   */
  public FakeSquall standingBy(String leaderUrl) {
    leader = leaderUrl;
    return this;
  }

  /** Answers {@code method path} (path without query) with {@code status} and {@code json}. */
  public FakeSquall on(String method, String path, int status, String json) {
    answers.put(method + " " + path, new ArrayDeque<>(List.of(new Answer(status, json))));
    return this;
  }

  /**
   * Answers {@code method path} with each of {@code jsons} in turn (status 200), then keeps giving
   * the last: a job that is pending, then running, then done.
   */
  public FakeSquall onEach(String method, String path, String... jsons) {
    Deque<Answer> queue = new ArrayDeque<>();
    for (String json : jsons) {
      queue.add(new Answer(200, json));
    }
    answers.put(method + " " + path, queue);
    return this;
  }

  /** Adds an answer to give after those already set for {@code method path}. */
  public FakeSquall then(String method, String path, int status, String json) {
    answers.computeIfAbsent(method + " " + path, k -> new ArrayDeque<>()).add(new Answer(status, json));
    return this;
  }

  private Answer answer(String route) {
    Deque<Answer> queue = answers.get(route);
    if (queue == null) {
      return null;
    }
    synchronized (queue) {
      return queue.size() > 1 ? queue.poll() : queue.peek();
    }
  }

  public List<Request> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  public Request last() {
    List<Request> all = requests();
    if (all.isEmpty()) {
      throw new AssertionError("the fake service got no request");
    }
    return all.get(all.size() - 1);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String path = exchange.getRequestURI().getRawPath();
    requests.add(new Request(exchange.getRequestMethod(), URLDecoder.decode(path, StandardCharsets.UTF_8),
        query(exchange.getRequestURI().getRawQuery()), body, Map.copyOf(exchange.getRequestHeaders())));
    Answer answer = answer(exchange.getRequestMethod() + " " + URLDecoder.decode(path, StandardCharsets.UTF_8));
    if (leader != null) {
      // Header names in lower case, as a proxy may send them: the client must not care.
      exchange.getResponseHeaders().add("x-squall-role", "standby");
      exchange.getResponseHeaders().add("x-squall-leader", leader);
      answer = new Answer(503, "{\"error\":\"this controller stands by\"}");
    } else if (answer == null) {
      answer = new Answer(404, "{\"error\":\"no route for " + path + "\"}");
    }
    byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    if (answer.status() == 401) {
      // As a bearer-token service answers (RFC 6750).
      exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer");
    }
    exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> q = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return q;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      q.put(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return q;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
