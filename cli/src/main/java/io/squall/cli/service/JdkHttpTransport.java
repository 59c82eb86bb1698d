package io.squall.cli.service;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * https (and http beside it) through {@code java.net.http.HttpClient}, which takes the TLS
 * context of the CA file or the JDK's CAs ({@link io.squall.agent.CaFile}). Slower to start than
 * {@link PlainHttpTransport}, which is why it serves https addresses only.
 */
final class JdkHttpTransport implements Transport {
  private final HttpClient http;
  private final Duration answerTimeout;

  /**
   * @param http an HTTP/1.1 client with its connection time limit and TLS context set
   * @param answerTimeout how long the controller may take to start its answer once connected,
   *     and then how long it may stay silent within it
   */
  JdkHttpTransport(HttpClient http, Duration answerTimeout) {
    this.http = http;
    this.answerTimeout = answerTimeout;
  }

  @Override
  public <T> Reply<T> exchange(String method, URI uri, Map<String, String> headers, String body, Answer<T> answer)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(answerTimeout);
    headers.forEach(request::header);
    request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    try {
      HttpResponse<InputStream> r = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      return Reply.read(r.statusCode(), r.headers().map(), new SilenceLimit(r.body(), answerTimeout), answer);
    } catch (HttpConnectTimeoutException e) {
      throw new Timeout(true, e);
    } catch (HttpTimeoutException e) {
      throw new Timeout(false, e);
    }
  }
}
