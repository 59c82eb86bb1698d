package io.squall.cli.service;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * How one request of {@link SquallClient} reaches one controller: a single HTTP/1.1 exchange,
 * with no retry (following the leader is {@link io.squall.agent.ControllerAddresses}' job).
 * Implementations are thread-safe.
 */
interface Transport {
  /**
   * Sends {@code method uri} with {@code headers} and, when not null, {@code body} (UTF-8). A 2xx
   * answer whose body is JSON is read by {@code answer} while it arrives (a list of 100,000 jobs is
   * parsed as the service writes it, not after); any other answer's body is kept whole, as bytes.
   *
   * @return the answer, whatever its status
   * @throws java.net.ConnectException the controller refused the connection
   * @throws Timeout no connection, or no answer, in time
   * @throws javax.net.ssl.SSLException a TLS failure (an https address)
   * @throws IOException any other failure of the exchange, or what {@code answer} threw
   */
  <T> Reply<T> exchange(String method, URI uri, Map<String, String> headers, String body, Answer<T> answer)
      throws IOException, InterruptedException;

  /** Reads a 2xx answer's JSON body from its stream (the stream ends where the body ends). */
  @FunctionalInterface
  interface Answer<T> {
    T read(InputStream json) throws IOException;
  }

  /**
   * An answer: its status, its headers (names in any case), and either what the {@link Answer}
   * read ({@code read} true: a 2xx answer with a JSON body; {@code body} then empty) or the body's
   * bytes ({@code read} false, {@code value} null).
   */
  record Reply<T>(int status, Map<String, List<String>> headers, boolean read, T value, byte[] body) {
    public Reply {
      Map<String, List<String>> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      // HttpURLConnection lists the status line under a null name.
      headers.forEach((name, values) -> {
        if (name != null) {
          byName.put(name, values);
        }
      });
      headers = byName;
    }

    /**
     * Reads {@code in}, the body of an answer with {@code status}, as {@link Transport#exchange}
     * says, and closes it. A body is JSON when its first byte after white space opens an object
     * or a list, which every endpoint answers; an HTML error page is not.
     */
    static <T> Reply<T> read(int status, Map<String, List<String>> headers, InputStream in, Answer<T> answer)
        throws IOException {
      if (in == null) {
        return new Reply<>(status, headers, false, null, new byte[0]);
      }
      try (PushbackInputStream body = new PushbackInputStream(new BufferedInputStream(in, 64 * 1024), 1)) {
        int first = body.read();
        while (first == ' ' || first == '\n' || first == '\r' || first == '\t') {
          first = body.read();
        }
        if (first >= 0) {
          body.unread(first);
        }
        if (status / 100 == 2 && (first == '{' || first == '[')) {
          return new Reply<>(status, headers, true, answer.read(body), new byte[0]);
        }
        return new Reply<>(status, headers, false, null, body.readAllBytes());
      }
    }

    /** The body as text, for messages. */
    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    public Optional<String> header(String name) {
      List<String> values = headers.get(name);
      return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }
  }

  /** No connection ({@code connecting}) or no answer within the transport's time limit. */
  final class Timeout extends IOException {
    private final boolean connecting;

    Timeout(boolean connecting, Throwable cause) {
      super(connecting ? "no connection in time" : "no answer in time", cause);
      this.connecting = connecting;
    }

    boolean connecting() {
      return connecting;
    }
  }
}
