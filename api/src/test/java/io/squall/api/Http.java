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
  private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;

  public Http(String base) {
    this.base = base;
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
