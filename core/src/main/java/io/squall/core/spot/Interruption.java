package io.squall.core.spot;

import java.time.Instant;
import java.util.Objects;

/**
 * A notice that a node's machine is being taken away, or may be.
 *
 * @param node the node's name, when the source knows it (a node-side watcher does); else null
 * @param instanceId the provider's instance id, when the source knows it (a cloud event does); else null
 * @param source who told us
 * @param kind what is going to happen
 * @param noticedAt when the source noticed it
 * @param deadline when the machine goes (for {@link Kind#REBALANCE}: a guess, nothing is certain)
 * @param detail the source's own words, for the node's reason and the job's history
 */
public record Interruption(String node, String instanceId, Source source, Kind kind, Instant noticedAt,
    Instant deadline, String detail) {
  public Interruption {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(noticedAt, "noticedAt");
    Objects.requireNonNull(deadline, "deadline");
    if (node == null && instanceId == null) {
      throw new IllegalArgumentException("an interruption names its node or its instance");
    }
    detail = detail == null ? "" : detail;
  }

  /** Where a notice came from. */
  public enum Source {
    /** The EC2 instance metadata service on the node (IMDSv2 {@code spot/instance-action}, rebalance). */
    AWS_METADATA,
    /** The GCE metadata server on the node ({@code instance/preempted}, {@code maintenance-event}). */
    GCE_METADATA,
    /** EC2 events delivered by EventBridge to an SQS queue. */
    AWS_EVENTS,
    /** The controller found the instance gone without any notice. */
    RECONCILIATION,
    /** An operator or a test ({@code POST /v1/nodes/NAME/interrupt}). */
    OPERATOR
  }

  /** What the notice says. */
  public enum Kind {
    /** The machine will be stopped or terminated at the deadline: checkpoint and requeue. */
    TERMINATION,
    /** The machine is at elevated risk (EC2 rebalance recommendation): advice only, nothing is stopped. */
    REBALANCE,
    /** The machine is already gone (state-change to shutting-down/terminated, or not listed any more). */
    GONE
  }
}
