package io.squall.cli.service;

import java.util.List;

/**
 * What {@code GET /v1/priorities} answers: the priority weights and each pending job's factors
 * in each partition it may run in (sprio's data).
 */
public record Priorities(Weights weights, List<Line> jobs) {
  public Priorities {
    jobs = jobs == null ? List.of() : List.copyOf(jobs);
  }

  /** Slurm's PriorityWeight* settings. */
  public record Weights(long age, long fairShare, long jobSize, long partition, long qos, long maxAgeSeconds) {}

  /**
   * One job in one partition; the factors are in [0, 1].
   *
   * @param jobIdRaw the job's own id (an array task's own)
   * @param partitionFactor and qosFactor: the partition and QOS factors (not their names)
   * @param explicit whether {@code --priority} set the priority, replacing the factors' sum
   */
  public record Line(String jobId, Long jobIdRaw, String partition, String user, String account, String qos,
      long priority, double age, double fairShare, double jobSize, double partitionFactor, double qosFactor,
      int nice, boolean explicit) {}
}
