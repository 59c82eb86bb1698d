package io.squall.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Just enough of EC2's IMDSv2 for the agent's tests (spot-handler's tests hold the thorough one):
 * a token by PUT with a TTL header, every read refused 401 without it, a Spot interruption
 * notice once {@link #interrupt} is called, 404 for everything else.
 */
final class FakeImds implements AutoCloseable {
  static final String INSTANCE_ID = "i-0agent000000000001";

  private final HttpServer server;
  private final Set<String> tokens = ConcurrentHashMap.newKeySet();
  private final AtomicInteger actionReads = new AtomicInteger();
  private volatile String instanceAction;

  FakeImds() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "fake-imds");
      t.setDaemon(true);
      return t;
    }));
    server.start();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** From now on {@code spot/instance-action} says the instance is terminated at {@code time}. */
  void interrupt(String time) {
    instanceAction = "{\"action\": \"terminate\", \"time\": \"" + time + "\"}";
  }

  /** How often the agent has read the notice: a clock of its polls. */
  int actionReads() {
    return actionReads.get();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      if (path.equals("/latest/api/token")) {
        boolean put = exchange.getRequestMethod().equals("PUT");
        if (!put || exchange.getRequestHeaders().getFirst("X-aws-ec2-metadata-token-ttl-seconds") == null) {
          respond(exchange, put ? 400 : 405, "");
          return;
        }
        String token = "token-" + tokens.size();
        tokens.add(token);
        respond(exchange, 200, token);
        return;
      }
      if (!tokens.contains(String.valueOf(exchange.getRequestHeaders().getFirst("X-aws-ec2-metadata-token")))) {
        respond(exchange, 401, "");
        return;
      }
      String body = null;
      if (path.equals("/latest/meta-data/instance-id")) {
        body = INSTANCE_ID;
      } else if (path.equals("/latest/meta-data/spot/instance-action")) {
        actionReads.incrementAndGet();
        body = instanceAction;
      }
      respond(exchange, body == null ? 404 : 200, body == null ? "" : body);
    }
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
  }
}
