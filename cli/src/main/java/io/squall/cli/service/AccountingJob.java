package io.squall.cli.service;

import java.time.Instant;

/**
 * A job that ran, as {@code GET /v1/accounting} lists it.
 *
 * @param jobId {@code "42"} or, for an array task, {@code "42_3"} (sacct's JobID)
 * @param jobIdRaw its own numeric job id (sacct's JobIDRaw)
 * @param exitSignal the signal that ended the job, or null
 * @param costUsd its share of its nodes' bills (0 on static nodes)
 * @param capacityType what its instances were bought as ({@code SPOT}, {@code ON_DEMAND}, comma-separated)
 * @param numCpus and memoryMb what it was granted on all its nodes
 * @param timeLimitMinutes as the partition resolved it; null for none (UNLIMITED)
 * @param reqNodes and reqGpus, reqCpus, reqMemoryMb: what it asked for, in the partition it ran in
 */
public record AccountingJob(
    String jobId,
    Long jobIdRaw,
    String name,
    String user,
    String account,
    String partition,
    String state,
    Integer exitCode,
    Integer exitSignal,
    Instant submitTime,
    Instant startTime,
    Instant endTime,
    Long elapsedSeconds,
    Integer numNodes,
    Integer numGpus,
    Double gpuHours,
    String nodes,
    Integer restartCount,
    Double costUsd,
    Double onDemandUsd,
    Double lostUsd,
    String capacityType,
    String instanceType,
    String cluster,
    String qos,
    Instant eligibleTime,
    Integer numCpus,
    Long memoryMb,
    Integer numTasks,
    Long timeLimitMinutes,
    Integer reqNodes,
    Integer reqGpus,
    Integer reqCpus,
    Long reqMemoryMb,
    String workDir,
    String reason,
    String comment,
    String constraints,
    String reservation) {
  /** Reads one from the service's JSON. */
  static AccountingJob from(JsonAnswer a) {
    return new AccountingJob(
        a.requiredString("job_id"),
        a.longValue("job_id_raw"),
        a.string("name"),
        a.string("user"),
        a.string("account"),
        a.string("partition"),
        a.string("state"),
        a.integer("exit_code"),
        a.integer("exit_signal"),
        a.instant("submit_time"),
        a.instant("start_time"),
        a.instant("end_time"),
        a.longValue("elapsed_seconds"),
        a.integer("num_nodes"),
        a.integer("num_gpus"),
        a.decimal("gpu_hours"),
        a.string("nodes"),
        a.integer("restart_count"),
        a.decimal("cost_usd"),
        a.decimal("on_demand_usd"),
        a.decimal("lost_usd"),
        a.string("capacity_type"),
        a.string("instance_type"),
        a.string("cluster"),
        a.string("qos"),
        a.instant("eligible_time"),
        a.integer("num_cpus"),
        a.longValue("memory_mb"),
        a.integer("num_tasks"),
        a.longValue("time_limit_minutes"),
        a.integer("req_nodes"),
        a.integer("req_gpus"),
        a.integer("req_cpus"),
        a.longValue("req_memory_mb"),
        a.string("work_dir"),
        a.string("reason"),
        a.string("comment"),
        a.string("constraints"),
        a.string("reservation"));
  }
}
