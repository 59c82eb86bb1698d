package io.squall.cli.service;

import java.io.IOException;
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
   * Sends {@code method uri} with {@code headers} and, when not null, {@code body} (UTF-8).
   *
   * @return the answer, whatever its status
   * @throws java.net.ConnectException the controller refused the connection
   * @throws Timeout no connection, or no answer, in time
   * @throws javax.net.ssl.SSLException a TLS failure (an https address)
   * @throws IOException any other failure of the exchange
   */
  Reply exchange(String method, URI uri, Map<String, String> headers, String body)
      throws IOException, InterruptedException;

  /**
   * An answer: its status, its headers (names in any case) and its body's bytes (UTF-8), read as
   * they are: a list of 100,000 jobs is parsed from its 20 MB of bytes without a copy as text.
   */
  record Reply(int status, Map<String, List<String>> headers, byte[] body) {
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
