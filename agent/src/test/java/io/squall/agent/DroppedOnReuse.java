package io.squall.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A relay in front of an agent that plays its side of a kept-alive connection going away just as
 * the caller reuses it (the JDK server's idle timeout firing, or the agent restarted on its port):
 * a request that comes on a connection that has already carried an answer is dropped and the
 * connection closed. Without the race of a real idle timeout, so a test of it cannot pass by luck.
 */
final class DroppedOnReuse implements AutoCloseable {
  private final ServerSocket listener;
  private final URI agent;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger dropped = new AtomicInteger();

  DroppedOnReuse(URI agent) throws IOException {
    this.agent = agent;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  /** The address callers use instead of the agent's. */
  URI address() {
    return URI.create("http://127.0.0.1:" + listener.getLocalPort());
  }

  /** Connections callers opened. */
  int connections() {
    return connections.get();
  }

  /** Requests dropped because they came on a connection that had already been answered. */
  int dropped() {
    return dropped.get();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket caller = listener.accept();
        connections.incrementAndGet();
        Socket upstream = new Socket(agent.getHost(), agent.getPort());
        AtomicBoolean answered = new AtomicBoolean();
        threads.execute(() -> copy(caller, upstream, true, answered));
        threads.execute(() -> copy(upstream, caller, false, answered));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  /** Copies {@code from} to {@code to} until either end closes; then both close. */
  private void copy(Socket from, Socket to, boolean requests, AtomicBoolean answered) {
    byte[] buffer = new byte[8192];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        if (requests && answered.get()) {
          dropped.incrementAndGet();
          return; // the request is lost, as on a connection the agent closed
        }
        if (!requests) {
          answered.set(true);
        }
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException e) {
      // one end went away: so does the other
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    threads.shutdownNow();
  }
}
