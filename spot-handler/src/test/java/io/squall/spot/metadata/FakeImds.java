package io.squall.spot.metadata;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The EC2 instance metadata service with IMDSv2 required, as EC2 runs it for Squall's instances
 * ({@code HttpTokens=required}): a token only by {@code PUT /latest/api/token} with a TTL of 1 to
 * 21600 seconds (400 otherwise), every read only with a live token (401 otherwise), and the
 * notices 404 until they are set.
 */
public final class FakeImds extends FakeMetadataServer {
  public static final String INSTANCE_ID = "i-0abc1234def567890";

  private final Map<String, Instant> tokens = new ConcurrentHashMap<>();
  private final AtomicInteger issued = new AtomicInteger();
  private volatile String instanceAction;
  private volatile String rebalance;

  public FakeImds() throws IOException {
    super();
  }

  /** The body of {@code spot/instance-action}; null for 404. */
  public void instanceAction(String body) {
    instanceAction = body;
  }

  /** The body of {@code events/recommendations/rebalance}; null for 404. */
  void rebalance(String body) {
    rebalance = body;
  }

  /** As when tokens expire or the service restarts: every token issued so far is refused. */
  void forgetTokens() {
    tokens.clear();
  }

  /** How often {@code spot/instance-action} was read. */
  public long actionReads() {
    return count("GET", Ec2MetadataSource.INSTANCE_ACTION_PATH);
  }

  long tokenPuts() {
    return count("PUT", Ec2MetadataSource.TOKEN_PATH);
  }

  @Override
  void handle(HttpExchange exchange, String method, String path) throws IOException {
    if (path.equals(Ec2MetadataSource.TOKEN_PATH)) {
      issue(exchange, method);
      return;
    }
    if (!path.startsWith("/latest/meta-data/")) {
      respond(exchange, 404, "");
      return;
    }
    if (!method.equals("GET")) {
      respond(exchange, 405, "");
      return;
    }
    String token = exchange.getRequestHeaders().getFirst(Ec2MetadataSource.TOKEN_HEADER);
    Instant expires = token == null ? null : tokens.get(token);
    if (expires == null || !Instant.now().isBefore(expires)) {
      respond(exchange, 401, "");
      return;
    }
    String body = switch (path) {
      case Ec2MetadataSource.INSTANCE_ID_PATH -> INSTANCE_ID;
      case Ec2MetadataSource.INSTANCE_ACTION_PATH -> instanceAction;
      case Ec2MetadataSource.REBALANCE_PATH -> rebalance;
      default -> null;
    };
    if (body == null) {
      respond(exchange, 404, "<?xml version=\"1.0\"?><title>404 - Not Found</title>");
    } else {
      respond(exchange, 200, body);
    }
  }

  private void issue(HttpExchange exchange, String method) throws IOException {
    if (!method.equals("PUT")) {
      respond(exchange, 405, "");
      return;
    }
    String ttl = exchange.getRequestHeaders().getFirst(Ec2MetadataSource.TTL_HEADER);
    long seconds;
    try {
      seconds = ttl == null ? -1 : Long.parseLong(ttl.trim());
    } catch (NumberFormatException e) {
      seconds = -1;
    }
    if (seconds < 1 || seconds > 21_600) {
      respond(exchange, 400, "");
      return;
    }
    String token = "AQAEAFake" + issued.incrementAndGet() + "==";
    tokens.put(token, Instant.now().plusSeconds(seconds));
    respond(exchange, 200, token);
  }
}
