package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A node agent that takes every call with 200 {@code {}} (a delete with {@code {"over":true}}) and
 * remembers each as {@code METHOD /path}: for service tests that send the node's heartbeats
 * themselves and say what it holds.
 */
public final class FakeAgent implements AutoCloseable {
  /** The agent token of the embedded configuration, which test controllers keep. */
  public static final String TOKEN = "change-me-agent-token";
  private final HttpServer server;
  private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
  private volatile CountDownLatch launchGate = new CountDownLatch(0);
  private volatile boolean deletedRunsLinger;

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
        // It runs no process: a job it is told to delete is over at once, unless told otherwise.
        String over = deletedRunsLinger ? "{\"over\":false}" : "{\"over\":true}";
        byte[] answer = (ex.getRequestMethod().equals("DELETE") ? over : "{}").getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(200, answer.length);
        ex.getResponseBody().write(answer);
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

  /**
   * Deletes are answered from now on as by an agent whose killed processes had not exited yet
   * ({@code "over":false}): the test's heartbeats then say when they have.
   */
  public void deletedRunsLinger() {
    deletedRunsLinger = true;
  }

  /** Registers this agent with the controller as {@code node}, a node of 8 GPUs, 32 CPUs and 256 GiB. */
  public void register(Http h, String node) {
    register(h, node, List.of());
  }

  /** {@link #register(Http, String)}, the agent holding the jobs {@code held}; the controller's answer. */
  public Http.Answer register(Http h, String node, List<String> held) {
    return accepted(tryRegister(h, node, held));
  }

  /** {@link #register(Http, String, List)}, whatever the controller answers. */
  public Http.Answer tryRegister(Http h, String node, List<String> held) {
    return h.post(TOKEN, "/v1/agent/register", Map.of("name", node, "address", address(), "gpus", 8,
        "cpus", 32, "memory_mb", 262144, "running", held));
  }

  /** A heartbeat of {@code node}'s agent saying that it holds the jobs {@code held} (and no other); the answer. */
  public Http.Answer heartbeat(Http h, String node, List<String> held) {
    return accepted(h.post(TOKEN, "/v1/agent/heartbeat", Map.of("name", node, "running", held)));
  }

  /** Reports that the batch script of {@code job} on {@code node} exited with {@code code}. */
  public void exit(Http h, String node, String job, int code) {
    accepted(h.post(TOKEN, "/v1/agent/events", Map.of("name", node, "events",
        List.of(Map.of("job", job, "type", "exit", "exit_code", code)))));
  }

  private static Http.Answer accepted(Http.Answer a) {
    assertThat(a.status()).as(a.body()).isEqualTo(200);
    return a;
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
