package io.squall.cli.service;

import java.time.Instant;
import java.util.List;

/**
 * What {@code POST /v1/jobs} answers: the job id and warnings, or for a test-only submission
 * where and when the job would start.
 *
 * @param numGpus GPUs a test-only submission would use when it could start now
 * @param costUsdMin what it may cost at worst all on the cheapest offering it may use (spot); null when not known
 * @param costUsdMax and all on the dearest (on demand)
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
    Double costUsdMin,
    Double costUsdMax) {
  /** Reads one from the service's JSON. */
  static SubmitResult from(JsonAnswer a) {
    return new SubmitResult(
        a.string("job_id"),
        a.strings("warnings"),
        a.bool("test_only"),
        a.string("partition"),
        a.instant("expected_start"),
        a.string("nodes"),
        a.string("reason"),
        a.integer("num_gpus"),
        a.decimal("cost_usd_min"),
        a.decimal("cost_usd_max"));
  }

  public SubmitResult {
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
  }
}
