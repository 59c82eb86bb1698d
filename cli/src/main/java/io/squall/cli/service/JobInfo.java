package io.squall.cli.service;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A job as {@code GET /v1/jobs} lists it (JOB in docs/rest-api.md). The last three components come
 * only from {@code GET /v1/jobs/{id}} ({@code batch}: false for an interactive allocation).
 *
 * @param jobId {@code "42"} or, for an array task, {@code "42_3"}
 * @param jobIdRaw its own numeric job id (SLURM_JOB_ID): an array task's own, else the job's
 * @param arrayPending for the line that stands for an array's pending tasks, e.g. {@code "[4-9%2]"}
 * @param timeLimitMinutes null means no limit
 * @param exitSignal the signal that ended the job, or null
 * @param eligibleTime when the job became eligible to run (its age counts from then), or null
 * @param reservation the advanced reservation it asked for ({@code --reservation}), or null
 */
public record JobInfo(
    String jobId,
    Long jobIdRaw,
    Long arrayJobId,
    Long arrayTaskId,
    String arrayPending,
    String name,
    String user,
    String account,
    String partition,
    String qos,
    String reservation,
    String state,
    String reason,
    String nodes,
    Integer numNodes,
    Integer numGpus,
    Integer numTasks,
    Long timeLimitMinutes,
    Instant submitTime,
    Instant eligibleTime,
    Instant startTime,
    Instant endTime,
    Long elapsedSeconds,
    Instant expectedStart,
    Integer restartCount,
    Integer exitCode,
    Integer exitSignal,
    String workDir,
    String stdout,
    String stderr,
    Map<String, Object> request,
    List<Allocation> allocation,
    Boolean batch) {
  /** Reads one from the service's JSON. */
  static JobInfo from(JsonAnswer a) {
    return new JobInfo(
        a.requiredString("job_id"),
        a.longValue("job_id_raw"),
        a.longValue("array_job_id"),
        a.longValue("array_task_id"),
        a.string("array_pending"),
        a.string("name"),
        a.string("user"),
        a.string("account"),
        a.string("partition"),
        a.string("qos"),
        a.string("reservation"),
        a.string("state"),
        a.string("reason"),
        a.string("nodes"),
        a.integer("num_nodes"),
        a.integer("num_gpus"),
        a.integer("num_tasks"),
        a.longValue("time_limit_minutes"),
        a.instant("submit_time"),
        a.instant("eligible_time"),
        a.instant("start_time"),
        a.instant("end_time"),
        a.longValue("elapsed_seconds"),
        a.instant("expected_start"),
        a.integer("restart_count"),
        a.integer("exit_code"),
        a.integer("exit_signal"),
        a.string("work_dir"),
        a.string("stdout"),
        a.string("stderr"),
        a.map("request"),
        a.objects("allocation", Allocation::from),
        a.bool("batch"));
  }

  /** The GPUs a job holds on one node. */
  public record Allocation(String node, List<Integer> gpus) {
    /** Reads one from the service's JSON. */
    static Allocation from(JsonAnswer a) {
      return new Allocation(
          a.string("node"),
          a.integers("gpus"));
    }
  }

  /**
   * One task of the array's pending remainder, as {@code squeue -r} lists it: {@code 42_4}, with
   * everything else as the remainder says.
   */
  public JobInfo pendingTask(long task) {
    return new JobInfo(arrayJobId + "_" + task, jobIdRaw, arrayJobId, task, null, name, user, account, partition,
        qos, reservation, state, reason, nodes, numNodes, numGpus, numTasks, timeLimitMinutes, submitTime,
        eligibleTime, startTime, endTime, elapsedSeconds, expectedStart, restartCount, exitCode, exitSignal, workDir,
        stdout, stderr, request, allocation, batch);
  }

  /** The id squeue shows: the array's pending remainder prints as {@code 42_[4-9%2]}. */
  public String displayId() {
    if (arrayPending != null && !arrayPending.isEmpty() && arrayJobId != null) {
      return arrayJobId + "_" + arrayPending;
    }
    return jobId;
  }
}
