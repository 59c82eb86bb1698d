package io.squall.agent;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The controller addresses a client was given ({@code http://a:6820,http://b:6820}: the agent's
 * {@code --controller}, the CLI's {@code SQUALL_URL}) and which of them leads as far as this client
 * knows. With high availability one controller leads and the others stand by; a standby answers
 * 503 with {@value #ROLE_HEADER} {@code standby} and the leader's address in {@value #LEADER_HEADER}.
 * {@link #send} follows that address when it is one of the given ones (a client never sends its
 * token anywhere else), or tries the next address after a standby's answer or a connection
 * failure, and remembers who answered. Thread-safe.
 */
public final class ControllerAddresses {
  public static final String LEADER_HEADER = "X-Squall-Leader";
  public static final String ROLE_HEADER = "X-Squall-Role";

  /** One request to the controller at {@code base} (no trailing slash), and its answer. */
  @FunctionalInterface
  public interface Attempt<R> {
    R send(URI base) throws IOException, InterruptedException;
  }

  /** An answer's first value of a header, by name in any case. */
  @FunctionalInterface
  public interface Header<R> {
    Optional<String> first(R answer, String name);
  }

  private final List<URI> all;
  private volatile URI current;

  private ControllerAddresses(List<URI> all) {
    this.all = List.copyOf(all);
    this.current = all.get(0);
  }

  /** One address. */
  public static ControllerAddresses of(URI address) {
    return new ControllerAddresses(List.of(trim(address)));
  }

  /**
   * Comma-separated http or https addresses, each a host and optional port.
   *
   * @throws IllegalArgumentException saying which address is wrong and why
   */
  public static ControllerAddresses parse(String text) {
    List<URI> out = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      String a = part.strip();
      try {
        URI uri = new URI(a);
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
          throw new IllegalArgumentException("'" + a + "' is not an http:// or https:// address with a host");
        }
        out.add(trim(uri));
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException("'" + a + "' is not an address: " + e.getReason());
      }
    }
    return new ControllerAddresses(out);
  }

  public List<URI> all() {
    return all;
  }

  /** The address that answered last (the leader, as far as this client knows), else the first. */
  public URI current() {
    return current;
  }

  /**
   * Sends to the leader: tries the current address, then follows a standby's pointer to a listed
   * leader or moves to the next address; at most one try more than there are addresses.
   *
   * @return the first answer not from a standby; when every address stood by, the last standby's 503
   * @throws IOException the last connection failure, when no controller answered at all
   */
  public <T> HttpResponse<T> send(Attempt<HttpResponse<T>> attempt) throws IOException, InterruptedException {
    return send(attempt, (r, name) -> r.headers().firstValue(name));
  }

  /** {@link #send(Attempt)} for any kind of answer, whose headers {@code header} reads. */
  public <R> R send(Attempt<R> attempt, Header<R> header) throws IOException, InterruptedException {
    URI base = current;
    R standby = null;
    IOException failure = null;
    for (int tries = 0; tries <= all.size(); tries++) {
      try {
        R r = attempt.send(base);
        if (all.size() == 1 || !header.first(r, ROLE_HEADER).orElse("").equals("standby")) {
          current = base;
          return r;
        }
        standby = r;
        URI leader = header.first(r, LEADER_HEADER).flatMap(this::listed).orElse(null);
        base = leader != null && !leader.equals(base) ? leader : next(base);
      } catch (IOException e) {
        if (all.size() == 1) {
          throw e;
        }
        failure = e;
        base = next(base);
      }
    }
    if (standby != null) {
      return standby;
    }
    throw failure;
  }

  private Optional<URI> listed(String address) {
    try {
      URI uri = trim(new URI(address.strip()));
      return all.stream().filter(uri::equals).findFirst();
    } catch (URISyntaxException e) {
      return Optional.empty();
    }
  }

  private URI next(URI base) {
    return all.get((all.indexOf(base) + 1) % all.size());
  }

  private static URI trim(URI uri) {
    String s = uri.toString();
    return s.endsWith("/") ? URI.create(s.substring(0, s.length() - 1)) : uri;
  }

  @Override
  public String toString() {
    return String.join(",", all.stream().map(URI::toString).toList());
  }
}
