package io.squall.cli.service;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A job as {@code GET /v1/jobs} lists it (JOB in docs/rest-api.md). The last four components come
 * only from {@code GET /v1/jobs/{id}}. {@code numCpus} is not in the documented JOB; it is read
 * when a service sends it.
 *
 * @param jobId {@code "42"} or, for an array task, {@code "42_3"}
 * @param arrayPending for the line that stands for an array's pending tasks, e.g. {@code "[4-9%2]"}
 * @param timeLimitMinutes null means no limit
 */
public record JobInfo(
    String jobId,
    Long arrayJobId,
    Long arrayTaskId,
    String arrayPending,
    String name,
    String user,
    String account,
    String partition,
    String qos,
    String state,
    String reason,
    String nodes,
    Integer numNodes,
    Integer numGpus,
    Integer numTasks,
    Integer numCpus,
    Long timeLimitMinutes,
    Instant submitTime,
    Instant startTime,
    Instant endTime,
    Long elapsedSeconds,
    Instant expectedStart,
    Integer restartCount,
    Integer exitCode,
    String exitSignal,
    String workDir,
    String stdout,
    String stderr,
    Long priority,
    Boolean held,
    Map<String, Object> request,
    List<Allocation> allocation,
    List<JobEvent> events,
    String script) {

  /** The GPUs a job holds on one node. */
  public record Allocation(String node, List<Integer> gpus) {}

  /** One state change in a job's history. */
  public record JobEvent(Instant time, String state, String reason) {}

  /** The id squeue shows: the array's pending remainder prints as {@code 42_[4-9%2]}. */
  public String displayId() {
    if (arrayPending != null && !arrayPending.isEmpty() && arrayJobId != null) {
      return arrayJobId + "_" + arrayPending;
    }
    return jobId;
  }
}
