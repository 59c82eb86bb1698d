package io.squall.agent;

import io.squall.agent.Protocol.EventBatch;
import io.squall.agent.Protocol.ExitEvent;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Exit events waiting for the controller. An event stays until a {@code POST /v1/agent/events}
 * that carried it is answered 200; until then it is resent every retry interval (the controller
 * ignores an exit it already has), so a controller that is down or restarting loses nothing.
 */
final class EventOutbox {
  /** Kept small so that one request stays small even after a long outage. */
  private static final int MAX_PER_REQUEST = 100;

  private final String node;
  private final ControllerClient client;
  private final ScheduledExecutorService executor;
  private final Duration retry;
  private final AgentLog log;
  private final AgentLog.Repeats failures = new AgentLog.Repeats();
  private final List<ExitEvent> pending = new ArrayList<>();
  private final ReentrantLock sending = new ReentrantLock();
  /** Set by every flush request, cleared by the flush that serves it. */
  private final AtomicBoolean wanted = new AtomicBoolean();

  EventOutbox(String node, ControllerClient client, ScheduledExecutorService executor, Duration retry, AgentLog log) {
    this.node = node;
    this.client = client;
    this.executor = executor;
    this.retry = retry;
    this.log = log;
  }

  void start() {
    // A periodic task that throws is never run again, so nothing may escape it.
    executor.scheduleWithFixedDelay(() -> {
      try {
        flush();
      } catch (RuntimeException e) {
        log.warn("sending exit events failed: " + e);
      }
    }, retry.toMillis(), retry.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Keeps the event and tries to send it right away, off the caller's thread. */
  void add(ExitEvent event) {
    synchronized (pending) {
      pending.add(event);
    }
    flushSoon();
  }

  void flushSoon() {
    try {
      executor.execute(this::flush);
    } catch (RejectedExecutionException e) {
      // Shutting down; the event is lost with the agent, as it would be on a crash.
    }
  }

  /**
   * Sends what is pending, in order, one request at a time. Returns at once when a flush is
   * already running, rather than hold one of the few controller threads while the controller is
   * slow; the running flush then sends again, so that nothing added meanwhile waits a whole
   * retry interval.
   */
  void flush() {
    wanted.set(true);
    while (wanted.get() && sending.tryLock()) {
      try {
        wanted.set(false);
        sendPending();
      } finally {
        sending.unlock();
      }
    }
  }

  /** Sends batch after batch until nothing is pending or a batch is not taken. */
  private void sendPending() {
    while (true) {
      List<ExitEvent> batch;
      synchronized (pending) {
        batch = List.copyOf(pending.subList(0, Math.min(pending.size(), MAX_PER_REQUEST)));
      }
      if (batch.isEmpty() || !send(batch)) {
        return;
      }
      synchronized (pending) {
        // Only a flush removes, and events are only added at the end: the batch is still the head.
        pending.subList(0, batch.size()).clear();
      }
    }
  }

  /** Answers whether the controller took the batch. */
  private boolean send(List<ExitEvent> batch) {
    try {
      ControllerClient.Reply reply = client.post("/v1/agent/events", new EventBatch(node, batch));
      if (reply.ok()) {
        failures.clear();
        batch.forEach(e -> log.info("reported exit of job " + e.job() + ": exit code " + e.exitCode()
            + (e.signal() == null ? "" : ", signal " + e.signal())));
        return true;
      }
      if (failures.isNew("HTTP " + reply.status())) {
        log.warn("exit events refused: HTTP " + reply.status() + " " + reply.body() + "; will resend");
      }
    } catch (InterruptedIOException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      if (failures.isNew(e.toString())) {
        log.warn("cannot send exit events: " + e + "; will resend");
      }
    }
    return false;
  }
}
