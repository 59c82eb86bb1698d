package io.squall.cli.service;

import java.io.IOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Plain http through the JDK's {@link HttpURLConnection}. A verb is one or two requests in a fresh
 * JVM, and there {@code java.net.http.HttpClient} costs about 80 ms before its first answer even
 * from the class-data sharing archive (its selector thread, the method handles it spins at run
 * time), half of a verb's run; this older client costs a few. Like the HttpClient it replaces, it
 * goes to the address directly, through no proxy.
 */
final class PlainHttpTransport implements Transport {
  static {
    // HttpURLConnection sends a request again, once, when its answer fails to come (the connection
    // closed or reset), POSTs included unless told otherwise: a submission the service committed
    // before the connection died would be submitted twice. Read when the JDK's HTTP client class is
    // first loaded, which in a verb's JVM is at this transport's first request.
    System.setProperty("sun.net.http.retryPost", "false");
  }

  private final Duration connectTimeout;
  private final Duration answerTimeout;

  /**
   * @param connectTimeout how long a connection may take
   * @param answerTimeout how long the controller may stay silent once connected
   */
  PlainHttpTransport(Duration connectTimeout, Duration answerTimeout) {
    this.connectTimeout = connectTimeout;
    this.answerTimeout = answerTimeout;
  }

  @Override
  public <T> Reply<T> exchange(String method, URI uri, Map<String, String> headers, String body, Answer<T> answer)
      throws IOException {
    HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection(Proxy.NO_PROXY);
    c.setConnectTimeout((int) connectTimeout.toMillis());
    c.setReadTimeout((int) answerTimeout.toMillis());
    c.setInstanceFollowRedirects(false);
    c.setRequestMethod(method);
    headers.forEach(c::setRequestProperty);
    // A POST without a body still says Content-Length: 0, as HttpClient's noBody does. The body is
    // buffered, not streamed: in streaming mode a 401 answer's body (the service's words) is lost.
    byte[] bytes = body == null ? null : body.getBytes(StandardCharsets.UTF_8);
    c.setDoOutput(bytes != null || method.equals("POST"));
    if (c.getDoOutput() && c.getRequestProperty("Content-Type") == null) {
      // Else HttpURLConnection labels it a form (application/x-www-form-urlencoded), which the
      // service refuses even for an empty body; JSON is what it takes.
      c.setRequestProperty("Content-Type", "application/json");
    }
    try {
      c.connect();
    } catch (SocketTimeoutException e) {
      throw new Timeout(true, e);
    }
    try {
      if (c.getDoOutput()) {
        try (OutputStream out = c.getOutputStream()) {
          if (bytes != null) {
            out.write(bytes);
          }
        }
      }
      int status = c.getResponseCode();
      // Below 400 the body is the input stream; from 400 on, the error stream (null when empty).
      return Reply.read(status, c.getHeaderFields(), status < 400 ? c.getInputStream() : c.getErrorStream(), answer);
    } catch (SocketTimeoutException e) {
      throw new Timeout(false, e);
    }
  }
}
