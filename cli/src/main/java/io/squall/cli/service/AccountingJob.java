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
    String instanceType) {}
