package io.squall.agent;

import io.squall.agent.Protocol.Heartbeat;
import io.squall.agent.Protocol.Registration;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Keeps the node known to the controller: registers (retrying with backoff until the controller
 * answers, so agents may start first), then heartbeats every {@code heartbeat_seconds} and
 * registers again when a heartbeat gets 404. A heartbeat answered 409 means another agent has
 * registered for this node since: this one is superseded, stops heartbeating for good and calls
 * {@code onSuperseded} (once), never registering again, so two agents cannot take the node from
 * each other in turn. Runs on its executor's thread; never blocks callers.
 */
final class ControllerLink {
  private static final Duration FIRST_RETRY = Duration.ofMillis(200);
  private static final Duration MAX_RETRY = Duration.ofSeconds(5);
  /** Used when a registration answer carries no interval. */
  private static final int DEFAULT_HEARTBEAT_SECONDS = 30;

  private final ControllerClient client;
  private final Supplier<Registration> registration;
  private final Supplier<Heartbeat> heartbeat;
  private final ScheduledExecutorService executor;
  private final Runnable onRegistered;
  private final Consumer<String> onSuperseded;
  private final Consumer<String> onStray;
  private final AgentLog log;
  private final AgentLog.Repeats failures = new AgentLog.Repeats();
  private volatile boolean registered;
  private volatile int heartbeatSeconds = DEFAULT_HEARTBEAT_SECONDS;
  private Duration retry = FIRST_RETRY;

  /**
   * @param onStray called with each job the controller's answer names as a stray: one this node
   *     holds but the controller does not run here (its end was committed but the clean-up never
   *     came, as when the controller died in between); the agent kills and forgets it
   */
  ControllerLink(ControllerClient client, Supplier<Registration> registration, Supplier<Heartbeat> heartbeat,
      ScheduledExecutorService executor, Runnable onRegistered, Consumer<String> onSuperseded,
      Consumer<String> onStray, AgentLog log) {
    this.client = client;
    this.registration = registration;
    this.heartbeat = heartbeat;
    this.executor = executor;
    this.onRegistered = onRegistered;
    this.onSuperseded = onSuperseded;
    this.onStray = onStray;
    this.log = log;
  }

  void start() {
    later(this::register, Duration.ZERO);
  }

  boolean registered() {
    return registered;
  }

  private void register() {
    try {
      ControllerClient.Reply reply = client.post("/v1/agent/register", registration.get());
      if (reply.ok()) {
        int seconds = reply.body().path("heartbeat_seconds").asInt(DEFAULT_HEARTBEAT_SECONDS);
        heartbeatSeconds = Math.max(1, seconds);
        registered = true;
        retry = FIRST_RETRY;
        failures.clear();
        log.info("registered with the controller; heartbeat every " + heartbeatSeconds + " s");
        strays(reply);
        onRegistered.run();
        later(this::heartbeat, Duration.ofSeconds(heartbeatSeconds));
        return;
      }
      complain("registration refused: HTTP " + reply.status() + " " + reply.body());
    } catch (IOException | RuntimeException e) {
      complain("controller unreachable: " + e);
    }
    later(this::register, retry);
    retry = retry.multipliedBy(2).compareTo(MAX_RETRY) > 0 ? MAX_RETRY : retry.multipliedBy(2);
  }

  /** The jobs the answer names as strays ({@code "strays":[keys]}), each handed to {@code onStray}. */
  private void strays(ControllerClient.Reply reply) {
    for (var key : reply.body().path("strays")) {
      if (key.isTextual()) {
        onStray.accept(key.asText());
      }
    }
  }

  private void heartbeat() {
    try {
      ControllerClient.Reply reply = client.post("/v1/agent/heartbeat", heartbeat.get());
      if (reply.status() == 404) {
        // The controller has forgotten this node (restarted, or marked it DOWN): introduce it again.
        registered = false;
        log.info("the controller does not know this node any more; registering again");
        later(this::register, Duration.ZERO);
        return;
      }
      if (reply.status() == 409) {
        registered = false;
        onSuperseded.accept(reply.body().path("error").asText(reply.body().toString()));
        return;
      }
      if (reply.ok()) {
        failures.clear();
        strays(reply);
      } else {
        complain("heartbeat refused: HTTP " + reply.status() + " " + reply.body());
      }
    } catch (IOException | RuntimeException e) {
      complain("heartbeat failed: " + e);
    }
    later(this::heartbeat, Duration.ofSeconds(heartbeatSeconds));
  }

  private void complain(String message) {
    if (failures.isNew(message)) {
      log.warn(message);
    }
  }

  private void later(Runnable step, Duration delay) {
    try {
      executor.schedule(step, delay.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // The agent is shutting down.
    }
  }
}
