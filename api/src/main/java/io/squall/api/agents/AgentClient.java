package io.squall.api.agents;

import io.micronaut.context.annotation.Value;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.json.JsonMapper;
import io.squall.agent.CaFile;
import io.squall.agent.TlsFileException;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The controller's calls to node agents (docs/agent-protocol.md). Blocking; callers run it off
 * the writer thread, as batch side effects.
 */
@Singleton
public final class AgentClient {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private final HttpClient http;
  private final JsonMapper json;
  private final AgentCredentials credentials;

  /**
   * @param agentCa {@code squall.tls.agent-ca}: the PEM CA file that agents serving HTTPS
   *     ({@code --tls-cert}) are checked against; blank for the JDK's trusted CAs
   */
  public AgentClient(JsonMapper json, AgentCredentials credentials, @Value("${squall.tls.agent-ca:}") String agentCa) {
    this.json = json;
    this.credentials = credentials;
    try {
      this.http = CaFile.trusting(HttpClient.newBuilder(), agentCa == null || agentCa.isBlank() ? null : Path.of(agentCa))
          .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(3)).build();
    } catch (TlsFileException e) {
      throw new ConfigurationException("squall.tls.agent-ca: " + e.getMessage());
    }
  }

  /** Sends a job to one node of its allocation. @throws AgentUnreachable when the agent does not take it */
  public void launch(String node, String address, Map<String, Object> launch) {
    send(node, address, "POST", "/jobs", launch);
  }

  /**
   * Signals the job's processes on the node: every one, or with {@code batchOnly} the batch shell
   * alone; SIGKILL follows after {@code killWaitSeconds} when > 0.
   */
  public void signal(String node, String address, String job, String signal, long killWaitSeconds,
      boolean batchOnly) {
    send(node, address, "POST", "/jobs/" + job + "/signal",
        Map.of("signal", signal, "kill_wait_seconds", killWaitSeconds, "batch_only", batchOnly));
  }

  /**
   * The job's run {@code run} is over: the agent kills what is left of it and forgets it, and
   * refuses a launch of that run that comes later. Answers whether the agent said nothing of the
   * run is left there (its processes exited).
   */
  public boolean forget(String node, String address, String job, int run) {
    String answer = send(node, address, "DELETE", "/jobs/" + job + "?run=" + run, null);
    try {
      Map<?, ?> body = json.readValue(answer, Map.class);
      return body != null && Boolean.TRUE.equals(body.get("over"));
    } catch (IOException e) {
      return false; // taken, but the answer says nothing: the node's next report will
    }
  }

  /** Sends one call; answers the agent's body. */
  private String send(String node, String address, String method, String path, Object body) {
    if (address == null) {
      throw new AgentUnreachable("the node has no registered agent");
    }
    try {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(address + path)).timeout(TIMEOUT)
          .header("Authorization", "Bearer " + credentials.forCalls(node));
      if (body == null) {
        b.method(method, HttpRequest.BodyPublishers.noBody());
      } else {
        b.header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
      }
      HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() / 100 != 2) {
        throw new AgentUnreachable("agent at " + address + " answered " + r.statusCode() + ": " + r.body());
      }
      return r.body();
    } catch (ConnectException | HttpConnectTimeoutException e) {
      throw new AgentUnreachable("agent at " + address + " unreachable: " + reason(e));
    } catch (IOException e) {
      // Sent, but no answer came back (the connection dropped, or the answer was late): the agent
      // may well have taken it.
      throw new AgentUnreachable("agent at " + address + " did not answer: " + reason(e), true);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AgentUnreachable("interrupted", true);
    }
  }

  /** The JDK's client leaves a refused connection's message empty: name the exception instead of "null". */
  private static String reason(IOException e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }

  /** An agent did not take a call. */
  public static final class AgentUnreachable extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final boolean mayHaveArrived;

    /** The agent did not get the call (nothing listened), or refused it (it answered an error). */
    public AgentUnreachable(String message) {
      this(message, false);
    }

    /** @param mayHaveArrived the call was sent and no answer came: the agent may have carried it out */
    public AgentUnreachable(String message, boolean mayHaveArrived) {
      super(message);
      this.mayHaveArrived = mayHaveArrived;
    }

    /** Whether the agent may have carried the call out (a launched job may run there). */
    public boolean mayHaveArrived() {
      return mayHaveArrived;
    }
  }

}
