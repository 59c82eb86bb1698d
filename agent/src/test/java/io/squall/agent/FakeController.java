package io.squall.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A controller's agent-facing side, in memory: records every call, answers as the protocol
 * says, and can be told to misbehave (forget a node, refuse events, interruption notices or
 * checkpoints).
 */
final class FakeController implements AutoCloseable {
  static final String TOKEN = "agent-secret";

  record Call(String path, JsonNode body, String authorization) {}

  private final ObjectMapper json = new ObjectMapper();
  private final HttpServer server;
  private final List<Call> calls = new CopyOnWriteArrayList<>();
  private final Set<String> known = ConcurrentHashMap.newKeySet();
  /** The address of the agent that registered last for each node. */
  private final Map<String, String> addresses = new ConcurrentHashMap<>();
  private final AtomicInteger eventFailures = new AtomicInteger();
  private final AtomicInteger interruptionFailures = new AtomicInteger();
  /** Null: checkpoints are taken. */
  private volatile Refusal checkpointRefusal;
  private final List<JsonNode> acceptedInterruptions = new CopyOnWriteArrayList<>();
  private final List<JsonNode> acceptedEvents = new CopyOnWriteArrayList<>();
  private final Map<String, ByteArrayOutputStream> outputs = new ConcurrentHashMap<>();
  private final int heartbeatSeconds;
  private volatile List<String> strays = List.of();

  private FakeController(int port, int heartbeatSeconds) throws IOException {
    this.heartbeatSeconds = heartbeatSeconds;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    server.createContext("/", this::handle);
    server.setExecutor(Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "fake-controller");
      t.setDaemon(true);
      return t;
    }));
    server.start();
  }

  static FakeController start() throws IOException {
    return new FakeController(0, 1);
  }

  static FakeController start(int port) throws IOException {
    return new FakeController(port, 1);
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Heartbeats are answered with these jobs as strays, runs the controller does not have on the node. */
  void strays(String... jobs) {
    strays = List.of(jobs);
  }

  /** As after a controller restart that lost the node: its next heartbeat gets 404. */
  void forget(String node) {
    known.remove(node);
  }

  /** The next {@code n} event posts are answered 500. */
  void failNextEvents(int n) {
    eventFailures.set(n);
  }

  /** The next {@code n} interruption notices are answered 503. */
  void failNextInterruptions(int n) {
    interruptionFailures.set(n);
  }

  /** An error answer: {@code {"error": message}} with this status. */
  record Refusal(int status, String message) {}

  /** Checkpoint registrations are answered with {@code refusal} from now on; null takes them again. */
  void refuseCheckpoints(Refusal refusal) {
    checkpointRefusal = refusal;
  }

  /** Interruption notices the controller took (answered 200), in arrival order. */
  List<JsonNode> interruptions() {
    return List.copyOf(acceptedInterruptions);
  }

  List<Call> calls(String path) {
    List<Call> matching = new ArrayList<>();
    for (Call c : calls) {
      if (c.path().equals(path)) {
        matching.add(c);
      }
    }
    return matching;
  }

  /** Exit events the controller took (answered 200), each id once, in arrival order. */
  List<JsonNode> exits() {
    Set<String> seen = new LinkedHashSet<>();
    List<JsonNode> exits = new ArrayList<>();
    for (JsonNode e : acceptedEvents) {
      if (seen.add(e.path("id").asText())) {
        exits.add(e);
      }
    }
    return exits;
  }

  Optional<JsonNode> exitOf(String job) {
    return exits().stream().filter(e -> e.path("job").asText().equals(job)).findFirst();
  }

  JsonNode awaitExit(String job, Duration timeout) {
    return Eventually.value("exit event of job " + job, timeout, () -> exitOf(job));
  }

  /** What the controller has of a job's output stream. */
  String output(String job, String stream) {
    ByteArrayOutputStream out = outputs.get(job + "." + stream);
    if (out == null) {
      return "";
    }
    synchronized (out) {
      return out.toString(StandardCharsets.UTF_8);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      JsonNode body = json.readTree(exchange.getRequestBody().readAllBytes());
      String path = exchange.getRequestURI().getPath();
      calls.add(new Call(path, body, exchange.getRequestHeaders().getFirst("Authorization")));
      if (!("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        respond(exchange, 401, "{\"error\":\"token\"}");
        return;
      }
      switch (path) {
        case "/v1/agent/register":
          known.add(body.path("name").asText());
          addresses.put(body.path("name").asText(), body.path("address").asText());
          respond(exchange, 200, "{\"heartbeat_seconds\":" + heartbeatSeconds + "}");
          return;
        case "/v1/agent/heartbeat":
          String registered = addresses.get(body.path("name").asText());
          if (registered != null && !registered.equals(body.path("address").asText())) {
            // As the controller: another agent registered for the node since this one did.
            respond(exchange, 409, json.writeValueAsString(Map.of("error", "node " + body.path("name").asText()
                + " is served by the agent at " + registered + ": this agent is superseded")));
          } else if (known.contains(body.path("name").asText())) {
            respond(exchange, 200, strays.isEmpty() ? "{}" : json.writeValueAsString(Map.of("strays", strays)));
          } else {
            respond(exchange, 404, "{\"error\":\"unknown node\"}");
          }
          return;
        case "/v1/agent/events":
          if (eventFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            respond(exchange, 500, "{\"error\":\"try again\"}");
            return;
          }
          body.path("events").forEach(acceptedEvents::add);
          respond(exchange, 200, "{}");
          return;
        case "/v1/agent/interruptions":
          if (interruptionFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            respond(exchange, 503, "{\"error\":\"starting\"}");
            return;
          }
          acceptedInterruptions.add(body);
          respond(exchange, 200, "{}");
          return;
        case "/v1/agent/checkpoints":
          Refusal refusal = checkpointRefusal;
          if (refusal != null) {
            respond(exchange, refusal.status(), json.writeValueAsString(Map.of("error", refusal.message())));
          } else {
            respond(exchange, 200, json.writeValueAsString(Map.of("step", body.path("step").asLong(),
                "path", body.path("path").asText())));
          }
          return;
        case "/v1/agent/output":
          respond(exchange, 200, "{\"next_offset\":" + append(body) + "}");
          return;
        default:
          respond(exchange, 404, "{}");
      }
    }
  }

  /** As the real controller's store: append only at the current size, answer the size. */
  private long append(JsonNode body) {
    ByteArrayOutputStream out = outputs.computeIfAbsent(body.path("job").asText() + "." + body.path("stream").asText(),
        k -> new ByteArrayOutputStream());
    synchronized (out) {
      byte[] data = body.path("data").asText().getBytes(StandardCharsets.UTF_8);
      if (body.path("offset").asLong() == out.size()) {
        out.write(data, 0, data.length);
      }
      return out.size();
    }
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }
}
