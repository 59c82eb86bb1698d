package io.squall.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small HTTP client for tests: JSON in, status and JSON out, with a bearer token. */
public final class Http {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient client;
  private final String base;

  public Http(String base) {
    this(base, HttpClient.newBuilder());
  }

  /** A client of an https controller whose certificate {@code trust} accepts. */
  public Http(String base, javax.net.ssl.SSLContext trust) {
    this(base, HttpClient.newBuilder().sslContext(trust));
  }

  private Http(String base, HttpClient.Builder client) {
    this.base = base;
    this.client = client.connectTimeout(Duration.ofSeconds(5)).build();
  }

  /** An answer: its status, raw body and the body as JSON (null when it is not JSON). */
  public record Answer(int status, String body, JsonNode json) {
    public String error() {
      return json == null || json.get("error") == null ? null : json.get("error").asText();
    }
  }

  public Answer get(String token, String path) {
    return send(token, "GET", path, null, null);
  }

  public Answer delete(String token, String path) {
    return send(token, "DELETE", path, null, null);
  }

  public Answer post(String token, String path, Object json) {
    try {
      return send(token, "POST", path, "application/json", json == null ? "" : JSON.writeValueAsString(json));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Answer postScript(String token, String pathAndQuery, String script) {
    return send(token, "POST", pathAndQuery, "text/x-shellscript", script);
  }

  /** Submits a batch script as alice (the default user); answers its job id. */
  public long submit(String script) {
    return jobId(postScript("alice-token", "/v1/jobs", script));
  }

  /** Submits {@code body} ({@code script}, {@code argv}, ...) as alice; answers its job id. */
  public long submit(Object body) {
    return jobId(post("alice-token", "/v1/jobs", body));
  }

  private static long jobId(Answer submitted) {
    if (submitted.status() != 201) {
      throw new AssertionError("submission refused: " + submitted.status() + " " + submitted.body());
    }
    return submitted.json().get("job_id").asLong();
  }

  /** The job as alice sees it ({@code GET /v1/jobs/ID}). */
  public JsonNode job(Object id) {
    return get("alice-token", "/v1/jobs/" + id).json();
  }

  public String jobState(Object id) {
    return job(id).get("state").asText();
  }

  /** The node's state as {@code GET /v1/nodes} shows it. */
  public String nodeState(String node) {
    return node(node).get("state").asText();
  }

  /** The node as {@code GET /v1/nodes} shows it to an operator. */
  public JsonNode node(String node) {
    for (JsonNode n : get("admin-token", "/v1/nodes").json().get("nodes")) {
      if (n.get("name").asText().equals(node)) {
        return n;
      }
    }
    throw new AssertionError("no node " + node);
  }

  public Answer send(String token, String method, String path, String contentType, String body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    try {
      HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
      JsonNode json = null;
      try {
        json = r.body().isEmpty() ? null : JSON.readTree(r.body());
      } catch (IOException notJson) {
        // plain text answers (job output, metrics)
      }
      return new Answer(r.statusCode(), r.body(), json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
