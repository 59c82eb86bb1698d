package io.squall.api.bench;

import java.net.http.HttpRequest;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;

/**
 * When each simulated agent's heartbeats left the bench and when they were answered, so that a
 * node the controller took for lost says which side was late: an agent whose sends are further
 * apart than the node timeout was late leaving the bench (its simulation starved); one whose sends
 * are not, but whose node went DOWN anyway, reached the controller late. Thread-safe.
 */
public final class HeartbeatTimes {
  /**
   * The worst of the run: the longest time between two sends of one agent, how many agents had a
   * gap longer than the node timeout, and the longest a heartbeat waited for its answer.
   */
  public record Worst(double gapSeconds, int agentsOverTimeout, double waitSeconds) {}

  private static final class Agent {
    private long lastSent;
    private long worstGap;
    private long worstWait;

    synchronized void sent(long at) {
      if (lastSent != 0) {
        worstGap = Math.max(worstGap, at - lastSent);
      }
      lastSent = at;
    }

    synchronized void answered(long sentAt, long at) {
      worstWait = Math.max(worstWait, at - sentAt);
    }

    synchronized void pause() {
      lastSent = 0;
    }
  }

  private final ConcurrentHashMap<String, Agent> agents = new ConcurrentHashMap<>();
  private final Duration nodeTimeout;

  public HeartbeatTimes(Duration nodeTimeout) {
    this.nodeTimeout = nodeTimeout;
  }

  /** One heartbeat on its way: its body, and what to call when its answer (or failure) came. */
  interface Beat {
    HttpRequest.BodyPublisher body();

    /** Notes the answer; nothing when the body never left (the connection failed first). */
    void answered();
  }

  /**
   * A heartbeat of {@code node} with body {@code json}, noting when the HTTP client starts sending
   * the body (after its connection is there and its headers are written): the moment it leaves the
   * bench, not when it was asked for.
   */
  Beat beat(String node, String json) {
    HttpRequest.BodyPublisher text = HttpRequest.BodyPublishers.ofString(json);
    Agent agent = agents.computeIfAbsent(node, n -> new Agent());
    return new Beat() {
      /** System.nanoTime when the body started going out; 0 until then. */
      private volatile long sentAt;

      @Override
      public HttpRequest.BodyPublisher body() {
        return new HttpRequest.BodyPublisher() {
          @Override
          public long contentLength() {
            return text.contentLength();
          }

          @Override
          public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
            sentAt = System.nanoTime();
            agent.sent(sentAt);
            text.subscribe(subscriber);
          }
        };
      }

      @Override
      public void answered() {
        if (sentAt != 0) {
          agent.answered(sentAt, System.nanoTime());
        }
      }
    };
  }

  /** The heartbeats were paused on purpose: the time until the next send is not a gap. */
  void paused() {
    agents.values().forEach(Agent::pause);
  }

  public Worst worst() {
    long gap = 0;
    long wait = 0;
    int over = 0;
    for (Agent a : agents.values()) {
      synchronized (a) {
        gap = Math.max(gap, a.worstGap);
        wait = Math.max(wait, a.worstWait);
        over += a.worstGap > nodeTimeout.toNanos() ? 1 : 0;
      }
    }
    return new Worst(gap / 1e9, over, wait / 1e9);
  }
}
