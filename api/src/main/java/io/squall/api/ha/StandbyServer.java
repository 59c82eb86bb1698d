package io.squall.api.ha;

import io.squall.agent.ControllerAddresses;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * What a standby answers on the controller's port while it waits for the lease: {@code /health}
 * and {@code /ha} say it stands by and where the leader is (200); every other request gets 503
 * with {@code X-Squall-Role: standby} and the leader's address in {@code X-Squall-Leader} and in
 * the JSON error, so that clients given several addresses go there. It holds no state and checks
 * no token: the leader's address is no secret. Plain HTTP only; with TLS configured a standby
 * does not listen at all, and clients move on to the next address as they do from a dead one.
 *
 * <p>One thread accepts and answers each connection in turn, one request each ({@code Connection:
 * close}), so that {@link #close} can promise what a takeover needs: once it returns, nothing is
 * listening and no connection is left open, and the leader's HTTP server binds the port. The
 * JDK's {@code HttpServer} did not: its {@code stop(0)} closes the connections it knows of while its
 * dispatcher may still be adding one it has just accepted (ServerImpl checks {@code terminating},
 * accepts, and only then adds the connection to the set {@code stop} has already closed), and such
 * a connection stayed open, unanswered, in the process that went on to lead: a client's request
 * sent as the takeover began waited for its own timeout (the 30 s takeovers of CI runs 30 and 42).
 */
final class StandbyServer implements AutoCloseable {
  /** A client has this long to send its request head, and to take the answer. */
  private static final int CLIENT_TIMEOUT_MS = 2_000;
  /** More request head than any client sends; the rest is not read. */
  private static final int MAX_HEAD_BYTES = 16 * 1024;
  /** A longer request body is not read: such a client may see its connection reset, and moves on. */
  private static final long MAX_BODY_BYTES = 1024 * 1024;

  private final ServerSocket listener;
  private final Thread acceptor;
  private volatile ControllerLease.Holder leader;
  /** The connection being answered, so that {@link #close} can end it too. */
  private volatile Socket current;

  private StandbyServer(ServerSocket listener) {
    this.listener = listener;
    this.acceptor = new Thread(this::serve, "squall-standby-http");
    this.acceptor.setDaemon(true);
  }

  /** @throws IOException when the port cannot be bound (another process has it) */
  static StandbyServer start(String host, int port) throws IOException {
    ServerSocket listener = new ServerSocket();
    try {
      listener.setReuseAddress(true);
      listener.bind(new InetSocketAddress(host, port), 50);
    } catch (IOException e) {
      listener.close();
      throw e;
    }
    StandbyServer standby = new StandbyServer(listener);
    standby.acceptor.start();
    return standby;
  }

  /** Whether a connection has been accepted and is being answered (its request read, or its answer written). */
  boolean answering() {
    return current != null;
  }

  /** The lease's holder as last read; null when none has ever led. */
  void leader(ControllerLease.Holder holder) {
    this.leader = holder;
  }

  private void serve() {
    while (!listener.isClosed()) {
      try (Socket connection = listener.accept()) {
        current = connection;
        if (listener.isClosed()) {
          return; // closed while accepting: the connection closes unanswered, as a closed port's would
        }
        connection.setSoTimeout(CLIENT_TIMEOUT_MS);
        answer(connection);
      } catch (IOException e) {
        // The listener closed (the loop ends), or a client sent nothing, garbage, or went away.
      } finally {
        current = null;
      }
    }
  }

  private void answer(Socket connection) throws IOException {
    InputStream in = connection.getInputStream();
    String path = path(requestLine(in));
    long bodyLength = path == null ? 0 : readHead(in);
    // The request's body is read before the answer, so that closing after it sends no reset that
    // could discard the answer before the client reads it.
    if (bodyLength > 0 && bodyLength <= MAX_BODY_BYTES) {
      in.skipNBytes(bodyLength);
    }
    ControllerLease.Holder h = leader;
    String url = h == null || !h.live() ? null : h.url();
    StringBuilder headers = new StringBuilder();
    String body;
    int status;
    if (path == null) {
      status = 400;
      body = "{\"error\":\"not an HTTP request\"}";
    } else if (path.equals("/health") || path.equals("/ha")) {
      status = 200;
      body = "{\"status\":\"UP\",\"role\":\"standby\",\"leader\":" + quoted(url) + ",\"term\":"
          + (url == null ? "null" : Long.toString(h.term())) + "}";
    } else {
      status = 503;
      String error = url != null ? "this controller stands by; the leader is " + url
          : "this controller stands by and no controller leads right now; one takes over within the lease time";
      body = "{\"error\":" + quoted(error) + ",\"leader\":" + quoted(url) + "}";
      headers.append("Retry-After: 1\r\n").append(ControllerAddresses.ROLE_HEADER).append(": standby\r\n");
      if (url != null) {
        headers.append(ControllerAddresses.LEADER_HEADER).append(": ").append(url).append("\r\n");
      }
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    String head = "HTTP/1.1 " + status + " " + reason(status) + "\r\n" + headers
        + "Content-Type: application/json\r\nContent-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n";
    OutputStream out = connection.getOutputStream();
    out.write(head.getBytes(StandardCharsets.US_ASCII));
    out.write(bytes);
    out.flush();
  }

  /** The request line, or null when the client sent none. */
  private static String requestLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      if (line.size() >= MAX_HEAD_BYTES) {
        return null;
      }
      line.write(b);
    }
    return b < 0 && line.size() == 0 ? null : line.toString(StandardCharsets.US_ASCII).strip();
  }

  /**
   * Reads the header lines up to the blank line that ends them (or a head too long to be a
   * client's); the body's length that {@code Content-Length} gives, 0 without one.
   */
  private static long readHead(InputStream in) throws IOException {
    long bodyLength = 0;
    StringBuilder line = new StringBuilder();
    int read = 0;
    int b;
    while ((b = in.read()) >= 0 && read++ < MAX_HEAD_BYTES) {
      if (b == '\n') {
        String header = line.toString().strip();
        if (header.isEmpty()) {
          return bodyLength;
        }
        int colon = header.indexOf(':');
        if (colon > 0 && header.substring(0, colon).strip().equalsIgnoreCase("Content-Length")) {
          try {
            bodyLength = Long.parseLong(header.substring(colon + 1).strip());
          } catch (NumberFormatException e) {
            bodyLength = 0;
          }
        }
        line.setLength(0);
      } else {
        line.append((char) b);
      }
    }
    return bodyLength;
  }

  /** The path of {@code GET /ha?x HTTP/1.1}, or null for a line that is not a request. */
  private static String path(String requestLine) {
    if (requestLine == null) {
      return null;
    }
    String[] parts = requestLine.split(" ");
    if (parts.length != 3 || !parts[2].startsWith("HTTP/")) {
      return null;
    }
    String target = parts[1];
    int scheme = target.indexOf("://");
    if (scheme >= 0) {
      int slash = target.indexOf('/', scheme + 3);
      target = slash < 0 ? "/" : target.substring(slash);
    }
    int query = target.indexOf('?');
    return query < 0 ? target : target.substring(0, query);
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      default -> "Service Unavailable";
    };
  }

  /** A JSON string; the addresses were checked at start-up (no quotes or control characters). */
  private static String quoted(String s) {
    return s == null ? "null" : "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /**
   * Stops listening and ends the connection being answered; returns once the answering thread has
   * stopped, so no connection of this server is left open and the port is free.
   */
  @Override
  public void close() {
    try {
      listener.close();
    } catch (IOException e) {
      // closing a listener does not fail in a way that matters here
    }
    Socket c = current;
    if (c != null) {
      try {
        c.close();
      } catch (IOException e) {
        // already closed
      }
    }
    try {
      acceptor.join(CLIENT_TIMEOUT_MS * 2L);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
