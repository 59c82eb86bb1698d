package io.squall.cli.service;

import java.util.List;

/**
 * What {@code GET /v1/priorities} answers: the priority weights and each pending job's factors
 * in each partition it may run in (sprio's data).
 */
public record Priorities(Weights weights, List<Line> jobs) {
  /** Reads one from the service's JSON. */
  static Priorities from(JsonAnswer a) {
    return new Priorities(
        a.object("weights", Weights::from),
        a.objects("jobs", Line::from));
  }

  public Priorities {
    jobs = jobs == null ? List.of() : List.copyOf(jobs);
  }

  /** Slurm's PriorityWeight* settings. */
  public record Weights(long age, long fairShare, long jobSize, long partition, long qos, long maxAgeSeconds) {
    /** Reads one from the service's JSON. */
    static Weights from(JsonAnswer a) {
      return new Weights(
          a.longOrZero("age"),
          a.longOrZero("fair_share"),
          a.longOrZero("job_size"),
          a.longOrZero("partition"),
          a.longOrZero("qos"),
          a.longOrZero("max_age_seconds"));
    }
  }

  /**
   * One job in one partition; the factors are in [0, 1].
   *
   * @param jobIdRaw the job's own id (an array task's own)
   * @param partitionFactor and qosFactor: the partition and QOS factors (not their names)
   * @param explicit whether {@code --priority} set the priority, replacing the factors' sum
   */
  public record Line(String jobId, Long jobIdRaw, String partition, String user, String account, String qos,
      long priority, double age, double fairShare, double jobSize, double partitionFactor, double qosFactor,
      int nice, boolean explicit) {
    /** Reads one from the service's JSON. */
    static Line from(JsonAnswer a) {
      return new Line(
          a.string("job_id"),
          a.longValue("job_id_raw"),
          a.string("partition"),
          a.string("user"),
          a.string("account"),
          a.string("qos"),
          a.longOrZero("priority"),
          a.decimalOrZero("age"),
          a.decimalOrZero("fair_share"),
          a.decimalOrZero("job_size"),
          a.decimalOrZero("partition_factor"),
          a.decimalOrZero("qos_factor"),
          a.intOrZero("nice"),
          Boolean.TRUE.equals(a.bool("explicit")));
    }
  }
}
