package io.squall.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.squall.agent.Protocol.CheckpointRequest;
import io.squall.agent.Protocol.JobSpec;
import io.squall.agent.Protocol.SignalRequest;
import io.squall.agent.Protocol.TaskRequest;
import io.squall.agent.Protocol.TaskSignal;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * The agent's HTTP side: the controller's calls (agent token) and the job tools' (srun's and
 * squall's, with the job's credential), as docs/agent-protocol.md lists them. Errors answer
 * {@code {"error": "..."}}: 400 for a malformed request, 401 for a wrong agent token, 403 for a
 * wrong job credential, 404 for an unknown path or (for the tools) an unknown job, 405 for a
 * wrong method; a relayed checkpoint answers with the controller's status.
 */
final class AgentServer implements AutoCloseable {
  /** Job keys name directories here, so only what Slurm keys look like is accepted. */
  private static final Pattern JOB_KEY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

  private final HttpServer server;
  private final String address;
  private final byte[] agentToken;
  private final JobControl control;
  private final StepRunner steps;
  private final CheckpointRelay checkpoints;
  private final AgentLog log;

  private AgentServer(HttpServer server, String scheme, String agentToken, JobControl control, StepRunner steps,
      CheckpointRelay checkpoints, AgentLog log) {
    this.server = server;
    this.agentToken = agentToken.getBytes(StandardCharsets.UTF_8);
    this.control = control;
    this.steps = steps;
    this.checkpoints = checkpoints;
    this.log = log;
    InetSocketAddress bound = server.getAddress();
    this.address = scheme + "://" + host(bound.getAddress()) + ":" + bound.getPort();
  }

  /**
   * Binds {@code bind:port} (port 0: any free port) and starts serving on {@code executor}: HTTPS
   * with {@code tls} (the agent's certificate and key), else plain HTTP.
   */
  static AgentServer start(String bind, int port, SSLContext tls, String agentToken, JobControl control,
      StepRunner steps, CheckpointRelay checkpoints, Executor executor, AgentLog log) throws IOException {
    InetSocketAddress address = new InetSocketAddress(bind, port);
    HttpServer server;
    if (tls == null) {
      server = HttpServer.create(address, 64);
    } else {
      HttpsServer https = HttpsServer.create(address, 64);
      https.setHttpsConfigurator(new HttpsConfigurator(tls));
      server = https;
    }
    AgentServer agentServer = new AgentServer(server, tls == null ? "http" : "https", agentToken, control, steps,
        checkpoints, log);
    server.createContext("/", agentServer::handle);
    server.setExecutor(executor);
    server.start();
    return agentServer;
  }

  /** The host part of the address others reach this agent at; for a wildcard bind, this machine's name. */
  private static String host(InetAddress bound) {
    if (bound.isAnyLocalAddress()) {
      try {
        return InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        return "127.0.0.1";
      }
    }
    String host = bound.getHostAddress();
    return host.contains(":") ? "[" + host + "]" : host;
  }

  /** {@code http://HOST:PORT}: the address the agent registers with. */
  String address() {
    return address;
  }

  @Override
  public void close() {
    server.stop(0);
  }

  /** A request the agent answers with an error status; the message is for the caller. */
  private static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;

    Refusal(int status, String message) {
      super(message);
      this.status = status;
    }
  }

  private void handle(HttpExchange exchange) {
    try (exchange) {
      // Every answer closes its connection, so no caller keeps one for a next call. This server
      // drops connections idle for 30 s; Java 17's HttpClient pools them for 20 min. A call sent on
      // one just as this side closed it got no answer ("header parser received no bytes"; a POST
      // is not repeated), and so did one on a connection a restarted agent left behind: a launch
      // that "may have arrived", whose job waited for the node timeout. The cost is a handshake
      // (and TLS's) per call, and the controller makes a few calls per job.
      exchange.getResponseHeaders().set("Connection", "close");
      try {
        route(exchange);
      } catch (Refusal r) {
        respond(exchange, r.status, Map.of("error", r.getMessage()));
      } catch (RuntimeException e) {
        log.warn(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " failed: " + e);
        respond(exchange, 500, Map.of("error", String.valueOf(e.getMessage())));
      }
    } catch (IOException e) {
      // The caller went away before its answer; nothing to tell anyone.
    }
  }

  private void route(HttpExchange exchange) throws Refusal, IOException {
    List<String> path = segments(exchange.getRequestURI());
    String method = exchange.getRequestMethod();
    if (path.isEmpty() || !path.get(0).equals("jobs") || path.size() > 4) {
      throw new Refusal(404, "no such endpoint: " + exchange.getRequestURI().getPath());
    }
    if (path.size() == 1) {
      expect(method, "POST");
      checkAgentToken(exchange);
      JobSpec spec = read(exchange, JobSpec.class);
      validate(spec);
      try {
        control.launch(spec);
      } catch (JobTable.Closed e) {
        throw new Refusal(503, e.getMessage());
      } catch (JobTable.Ended e) {
        throw new Refusal(409, e.getMessage());
      }
      respond(exchange, 200, Map.of());
      return;
    }
    String key = path.get(1);
    if (!JOB_KEY.matcher(key).matches()) {
      throw new Refusal(400, "bad job key '" + key + "'");
    }
    String rest = String.join("/", path.subList(2, path.size()));
    switch (rest) {
      case "":
        expect(method, "DELETE");
        checkAgentToken(exchange);
        boolean over = control.delete(key, run(exchange.getRequestURI()), JobControl.DELETE_PATIENCE);
        respond(exchange, 200, Map.of("over", over));
        return;
      case "signal":
        expect(method, "POST");
        checkAgentToken(exchange);
        SignalRequest request = read(exchange, SignalRequest.class);
        control.signal(key, signal(request.signal()), request.killWaitSeconds(), request.batchOnly());
        respond(exchange, 200, Map.of());
        return;
      case "tasks":
        expect(method, "POST");
        runTasks(exchange, jobForCredential(exchange, key));
        return;
      case "tasks/signal":
        expect(method, "POST");
        NodeJob job = jobForCredential(exchange, key);
        TaskSignal taskSignal = read(exchange, TaskSignal.class);
        job.signalTasks(taskSignal.step(), signal(taskSignal.signal()));
        respond(exchange, 200, Map.of());
        return;
      case "checkpoints":
        expect(method, "POST");
        relayCheckpoint(exchange, jobForCredential(exchange, key));
        return;
      default:
        throw new Refusal(404, "no such endpoint: " + exchange.getRequestURI().getPath());
    }
  }

  private void runTasks(HttpExchange exchange, NodeJob job) throws Refusal, IOException {
    TaskRequest request = read(exchange, TaskRequest.class);
    if (request.argv().isEmpty() || request.tasks().isEmpty()) {
      throw new Refusal(400, "argv and tasks must not be empty");
    }
    exchange.getResponseHeaders().set("Content-Type", "application/x-ndjson");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream body = exchange.getResponseBody()) {
      steps.run(job, request, body);
    }
  }

  /** The job's own word that it wrote a checkpoint: checked here, decided by the controller. */
  private void relayCheckpoint(HttpExchange exchange, NodeJob job) throws Refusal, IOException {
    CheckpointRequest request = read(exchange, CheckpointRequest.class);
    if (request.step() == null || request.step() < 0) {
      throw new Refusal(400, "step: a whole number >= 0 is required");
    }
    String path = request.path();
    if (path == null || path.isBlank()) {
      throw new Refusal(400, "path: the checkpoint's path is required");
    }
    if (!path.startsWith("/") && !path.contains("://")) {
      // The tool resolves relative paths against the job's directory; the controller would not.
      throw new Refusal(400, "path: an absolute path (or a URL such as s3://..) is required, not '" + path + "'");
    }
    CheckpointRelay.Answer answer = checkpoints.relay(job.key(), request.step(), path);
    respond(exchange, answer.status(), answer.body());
  }

  private static void validate(JobSpec spec) throws Refusal {
    if (spec.job() == null || !JOB_KEY.matcher(spec.job()).matches()) {
      throw new Refusal(400, "job: a job key such as 42 or 42_3 is required");
    }
    if (spec.credential() == null || spec.credential().isEmpty()) {
      throw new Refusal(400, "credential is required");
    }
    if (spec.batch() && spec.script() == null) {
      throw new Refusal(400, "script is required when batch is true");
    }
    if (spec.run() < 0) {
      throw new Refusal(400, "run: a whole number >= 0 is required");
    }
  }

  private static PosixSignal signal(String text) throws Refusal {
    try {
      return PosixSignal.parse(text);
    } catch (IllegalArgumentException e) {
      throw new Refusal(400, e.getMessage());
    }
  }

  private void checkAgentToken(HttpExchange exchange) throws Refusal {
    if (!bearerMatches(exchange, agentToken)) {
      throw new Refusal(401, "the agent token is required");
    }
  }

  /** The tools' calls carry the job's credential; a job unknown here is 404, a wrong credential 403. */
  private NodeJob jobForCredential(HttpExchange exchange, String key) throws Refusal {
    Optional<NodeJob> job = control.job(key);
    if (job.isEmpty()) {
      throw new Refusal(404, "job " + key + " is not on this node");
    }
    if (!bearerMatches(exchange, job.get().spec().credential().getBytes(StandardCharsets.UTF_8))) {
      throw new Refusal(403, "wrong credential for job " + key);
    }
    return job.get();
  }

  private static boolean bearerMatches(HttpExchange exchange, byte[] expected) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    if (header == null || !header.startsWith("Bearer ")) {
      return false;
    }
    // Constant time, so that response timing does not reveal how much of a guess was right.
    return MessageDigest.isEqual(header.substring(7).trim().getBytes(StandardCharsets.UTF_8), expected);
  }

  private static void expect(String method, String expected) throws Refusal {
    if (!method.equals(expected)) {
      throw new Refusal(405, "use " + expected);
    }
  }

  private static <T> T read(HttpExchange exchange, Class<T> type) throws Refusal, IOException {
    byte[] body = exchange.getRequestBody().readAllBytes();
    try {
      T value = Json.MAPPER.readValue(body, type);
      if (value == null) {
        throw new Refusal(400, "a JSON object is required");
      }
      return value;
    } catch (JsonProcessingException e) {
      throw new Refusal(400, "malformed request: " + e.getOriginalMessage());
    }
  }

  private static void respond(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes = Json.MAPPER.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  /** A delete's {@code ?run=N}: which run of the job is over; null without one (whichever is held). */
  private static Integer run(URI uri) throws Refusal {
    String query = uri.getRawQuery();
    if (query == null || query.isEmpty()) {
      return null;
    }
    for (String pair : query.split("&")) {
      if (pair.startsWith("run=")) {
        try {
          int run = Integer.parseInt(pair.substring(4));
          if (run >= 0) {
            return run;
          }
        } catch (NumberFormatException e) {
          // refused below
        }
        throw new Refusal(400, "run: a whole number >= 0 is required, not '" + pair.substring(4) + "'");
      }
    }
    return null;
  }

  private static List<String> segments(URI uri) {
    List<String> parts = new ArrayList<>();
    for (String part : uri.getPath().split("/")) {
      if (!part.isEmpty()) {
        parts.add(part);
      }
    }
    return parts;
  }
}
