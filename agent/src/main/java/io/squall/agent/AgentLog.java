package io.squall.agent;

import java.io.PrintStream;
import java.time.Instant;

/**
 * The agent's log: one line per event on standard error, which the local provider sends to
 * {@code agent.log}. Lines carry the node name because tests run several agents in one JVM.
 */
final class AgentLog {
  private final String node;
  private final PrintStream out;

  AgentLog(String node, PrintStream out) {
    this.node = node;
    this.out = out;
  }

  void info(String message) {
    out.println(Instant.now() + " " + node + ": " + message);
  }

  void warn(String message) {
    out.println(Instant.now() + " " + node + ": warning: " + message);
  }

  /** Remembers one recurring failure so that a controller that stays down is logged once, not every second. */
  static final class Repeats {
    private String last;

    /** Whether this message differs from the previous failure (and so deserves a line). */
    synchronized boolean isNew(String message) {
      boolean fresh = !message.equals(last);
      last = message;
      return fresh;
    }

    synchronized void clear() {
      last = null;
    }
  }
}
