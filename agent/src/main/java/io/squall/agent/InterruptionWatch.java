package io.squall.agent;

import io.squall.agent.Protocol.InterruptionNotice;
import io.squall.core.spot.Interruption;
import io.squall.core.spot.InterruptionSource;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Polls the node's metadata service for interruption notices and reports each to the controller
 * ({@code POST /v1/agent/interruptions}). A notice stays queued until the controller takes it:
 * a controller that is down, restarting or failing (5xx) gets it on a later poll, so a notice is
 * never lost while the agent lives (and a spot node rarely has more than its two minutes). One
 * the controller refuses for what it says (4xx) is logged and dropped.
 *
 * <p>Everything runs on the watch's own thread, the source's one thread: a slow metadata service
 * or controller delays nothing else, and heartbeats never wait for it.
 */
final class InterruptionWatch implements AutoCloseable {
  /** AWS suggests checking every 5 s; 1 s costs a few local requests and gives the job more of its notice. */
  static final Duration POLL = Duration.ofSeconds(1);
  static final String PATH = "/v1/agent/interruptions";

  private final InterruptionSource source;
  private final String node;
  private final ControllerClient client;
  private final ScheduledExecutorService thread;
  private final AgentLog log;
  private final AgentLog.Repeats failures = new AgentLog.Repeats();
  /** Only touched on {@link #thread}. */
  private final Deque<InterruptionNotice> unsent = new ArrayDeque<>();

  private InterruptionWatch(InterruptionSource source, String node, ControllerClient client,
      ScheduledExecutorService thread, AgentLog log) {
    this.source = source;
    this.node = node;
    this.client = client;
    this.thread = thread;
    this.log = log;
  }

  /** Starts polling on {@code thread}, which the watch owns from now on (and shuts down on close). */
  static InterruptionWatch start(InterruptionSource source, String node, ControllerClient client,
      ScheduledExecutorService thread, AgentLog log) {
    InterruptionWatch watch = new InterruptionWatch(source, node, client, thread, log);
    thread.scheduleWithFixedDelay(watch::tick, 0, POLL.toMillis(), TimeUnit.MILLISECONDS);
    log.info("watching " + source.name() + " for interruption notices every " + POLL.toSeconds() + " s");
    return watch;
  }

  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    source.close();
  }

  /** One poll, then everything unsent. A periodic task that throws is never run again: nothing escapes. */
  private void tick() {
    try {
      for (Interruption notice : source.poll()) {
        log.warn("interruption notice from " + source.name() + ": " + notice.kind() + " by " + notice.deadline()
            + " (" + notice.detail() + ")");
        unsent.add(message(notice));
      }
    } catch (RuntimeException e) {
      // UncheckedIOException is the source's "cannot reach the service"; anything else is a bug
      // in a source, which must not stop the watch either.
      complain("cannot read " + source.name() + ": " + e.getMessage());
    }
    send();
  }

  private void send() {
    while (!unsent.isEmpty()) {
      InterruptionNotice notice = unsent.peek();
      try {
        ControllerClient.Reply reply = client.post(PATH, notice);
        if (refusedForGood(reply.status())) {
          // The controller read it and said no (a bad deadline, a name not ours): resending cannot help.
          log.warn("interruption notice refused: HTTP " + reply.status() + " " + reply.body() + "; dropped");
          unsent.remove();
          continue;
        }
        if (!reply.ok()) {
          complain("interruption notice refused: HTTP " + reply.status() + " " + reply.body() + "; will resend");
          return;
        }
        unsent.remove();
        failures.clear();
        log.info("reported the " + notice.kind() + " notice to the controller");
      } catch (InterruptedIOException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (IOException | RuntimeException e) {
        complain("cannot send the interruption notice: " + e + "; will resend");
        return;
      }
    }
  }

  /** A 4xx answer other than a timeout or throttling: the notice itself is wrong. */
  static boolean refusedForGood(int status) {
    return status >= 400 && status < 500 && status != 408 && status != 429;
  }

  private InterruptionNotice message(Interruption notice) {
    return new InterruptionNotice(node, notice.source().name(), notice.kind().name(), notice.instanceId(),
        notice.noticedAt().toString(), notice.deadline().toString(), notice.detail());
  }

  private void complain(String message) {
    if (failures.isNew(message)) {
      log.warn(message);
    }
  }
}
