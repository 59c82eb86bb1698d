package io.squall.spot.drain;

import io.squall.core.model.JobKey;
import java.time.Instant;
import java.util.Objects;

/**
 * One run of a job (its restart count tells the runs apart) that holds an interrupted node.
 *
 * @param running whether it runs (else it waits for its nodes to boot: nothing to checkpoint)
 * @param started when this run started; null when it has not
 * @param gpus the GPUs it holds on all its nodes
 */
public record JobRun(JobKey job, int restartCount, String partition, boolean running, Instant started, int gpus) {
  public JobRun {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(partition, "partition");
  }
}
