package io.squall.cli.service;

import java.time.Instant;
import java.util.List;

/**
 * What {@code POST /v1/jobs} answers: the job id and warnings, or for a test-only submission
 * where and when the job would start.
 *
 * @param numGpus GPUs the test-only placement would use (the service sends it; the document does not list it)
 * @param numCpus not documented; used in the test-only message when a service sends it
 */
public record SubmitResult(
    String jobId,
    List<String> warnings,
    Boolean testOnly,
    String partition,
    Instant expectedStart,
    String nodes,
    String reason,
    Integer numGpus,
    Integer numCpus) {

  public SubmitResult {
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
  }
}
