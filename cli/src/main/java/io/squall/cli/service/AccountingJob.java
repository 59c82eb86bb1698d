package io.squall.cli.service;

import java.time.Instant;

/**
 * A job that ran, as {@code GET /v1/accounting} lists it. {@code numCpus} is not documented; it
 * is read when a service sends it.
 */
public record AccountingJob(
    String jobId,
    String name,
    String user,
    String account,
    String partition,
    String state,
    Integer exitCode,
    String exitSignal,
    Instant submitTime,
    Instant startTime,
    Instant endTime,
    Long elapsedSeconds,
    Integer numNodes,
    Integer numGpus,
    Integer numCpus,
    Double gpuHours,
    String nodes,
    Integer restartCount) {}
