package io.squall.spot.metadata;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * The few plain HTTP calls a metadata watcher makes. A metadata service answers on a link-local
 * address within milliseconds, so the timeouts are short: a poll never hangs for long on a
 * service that is not there (a node started outside the cloud, a wrong {@code --metadata-url}).
 */
final class MetadataHttp {
  static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final String base;
  private final HttpClient client = HttpClient.newBuilder()
      // Plain HTTP/1.1: metadata services do not speak h2c, and the upgrade attempt only costs.
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(TIMEOUT)
      .followRedirects(HttpClient.Redirect.NEVER)
      .build();

  MetadataHttp(URI base) {
    String text = base.toString();
    this.base = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }

  /** A status and a body, whatever the status. */
  record Answer(int status, String body) {
    boolean ok() {
      return status == 200;
    }

    /** The metadata services say "no such notice" with 404. */
    boolean absent() {
      return status == 404;
    }
  }

  /** @throws UncheckedIOException when the service cannot be reached or does not answer in time */
  Answer get(String path, Map<String, String> headers) {
    return send(request(path, headers).GET().build());
  }

  /** @throws UncheckedIOException when the service cannot be reached or does not answer in time */
  Answer put(String path, Map<String, String> headers) {
    return send(request(path, headers).PUT(HttpRequest.BodyPublishers.noBody()).build());
  }

  /** For an answer that is neither a notice nor "no notice": the service itself is failing. */
  UncheckedIOException failure(String path, Answer answer) {
    String body = answer.body().length() > 200 ? answer.body().substring(0, 200) + "..." : answer.body();
    return new UncheckedIOException(new IOException(
        "metadata service " + base + " answered " + path + " with HTTP " + answer.status() + ": " + body.strip()));
  }

  private HttpRequest.Builder request(String path, Map<String, String> headers) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT);
    headers.forEach(builder::header);
    return builder;
  }

  private Answer send(HttpRequest request) {
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return new Answer(response.statusCode(), response.body() == null ? "" : response.body());
    } catch (IOException e) {
      throw new UncheckedIOException("metadata service unreachable: " + request.method() + " " + request.uri()
          + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(new InterruptedIOException("interrupted calling " + request.uri()));
    }
  }
}
