package io.squall.simulate.trace;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One job of a recorded job history, as the simulation replays it: when it was submitted, the gang
 * it ran as and for how long. Fields a format does not record are null.
 *
 * @param id the trace's own job id (text: {@code 123}, {@code 9_1}, {@code job/worker})
 * @param submit when it was submitted
 * @param user who submitted it; null when the format has none
 * @param account the account it was charged to; null when the format has none
 * @param partition the partition it ran in; null when the format has none
 * @param qos its QOS (or the format's nearest thing, such as an SWF queue); null when none
 * @param nodes nodes in its gang, at least 1
 * @param gpusPerNode GPUs on each of those nodes, 0 or more
 * @param runtime its elapsed time as recorded (start to end): what the simulation replays
 * @param timeLimit its time limit; null when unknown or unlimited
 * @param state its final state as recorded ({@code COMPLETED}, {@code CANCELLED by 1000}, ...);
 *     null when the format has none
 */
public record TraceJob(String id, Instant submit, String user, String account, String partition, String qos,
    int nodes, int gpusPerNode, Duration runtime, Duration timeLimit, String state) {
  public TraceJob {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(submit, "submit");
    Objects.requireNonNull(runtime, "runtime");
    if (nodes < 1) {
      throw new IllegalArgumentException("job " + id + ": nodes must be at least 1, got " + nodes);
    }
    if (gpusPerNode < 0) {
      throw new IllegalArgumentException("job " + id + ": GPUs per node must be 0 or more, got " + gpusPerNode);
    }
    if (runtime.isNegative()) {
      throw new IllegalArgumentException("job " + id + ": runtime must be 0 or more, got " + runtime);
    }
    if (timeLimit != null && (timeLimit.isNegative() || timeLimit.isZero())) {
      throw new IllegalArgumentException("job " + id + ": a time limit must be positive (null for none), got "
          + timeLimit);
    }
  }

  /** GPUs of the whole gang. */
  public int gpus() {
    return nodes * gpusPerNode;
  }
}
