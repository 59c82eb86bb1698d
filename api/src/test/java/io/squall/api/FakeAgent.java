package io.squall.api;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A node agent that takes every call with 200 {@code {}} and remembers each as {@code METHOD
 * /path}: for service tests that send the node's heartbeats themselves and say what it holds.
 */
public final class FakeAgent implements AutoCloseable {
  private final HttpServer server;
  private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
  private volatile CountDownLatch launchGate = new CountDownLatch(0);

  public FakeAgent() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", ex -> {
      try (ex) {
        calls.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
        if (ex.getRequestURI().getPath().equals("/jobs")) {
          try {
            launchGate.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        ex.sendResponseHeaders(200, 2);
        ex.getResponseBody().write("{}".getBytes(StandardCharsets.UTF_8));
      }
    });
    server.start();
  }

  /** Its base address, as it registers. */
  public String address() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Launches arriving from now on are answered only once {@link #answerLaunches} is called: a slow agent. */
  public void holdLaunches() {
    launchGate = new CountDownLatch(1);
  }

  public void answerLaunches() {
    launchGate.countDown();
  }

  public boolean called(String methodAndPath) {
    return calls.contains(methodAndPath);
  }

  @Override
  public void close() {
    answerLaunches();
    server.stop(0);
  }
}
