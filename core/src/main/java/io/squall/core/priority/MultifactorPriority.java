package io.squall.core.priority;

import io.squall.core.model.Job;
import io.squall.core.model.Partition;
import io.squall.core.model.Qos;
import java.time.Duration;
import java.time.Instant;

/**
 * {@code priority = w_age*age + w_fs*fairshare + w_size*size + w_part*partition + w_qos*qos - nice},
 * each factor in [0, 1]; an explicit {@code --priority} replaces the sum, as in Slurm.
 *
 * <p>Age is the time the job has been eligible ({@link Job#eligibleSince}) over PriorityMaxAge: a
 * job gets none for time spent held, before its begin time or waiting on a dependency, and none
 * before it became eligible. This is Slurm's accrue time: priority_multifactor.shtml, "Age
 * Factor" ("the length of time a job has been sitting in the queue and eligible to run ... the
 * age factor for a dependent job will not change while it waits for the job it depends on");
 * set_priority_factors() in src/plugins/priority/multifactor/priority_multifactor.c counts from
 * details->accrue_time and gives no age while it is unset. With PriorityFlags=ACCRUE_ALWAYS
 * (slurm.conf(5): "priority age factor will be increased despite job ineligibility due to either
 * dependencies, holds or begin time in the future") it counts from submission.
 */
public final class MultifactorPriority {
  private final PriorityWeights weights;
  private final FairShare fairShare;
  private final int clusterNodes;
  private final int maxPartitionFactor;
  private final int maxQosPriority;
  private final boolean accrueAlways;

  /** @param accrueAlways Slurm's PriorityFlags=ACCRUE_ALWAYS: age counts from submission */
  public MultifactorPriority(PriorityWeights weights, FairShare fairShare, int clusterNodes,
      int maxPartitionFactor, int maxQosPriority, boolean accrueAlways) {
    this.weights = weights;
    this.accrueAlways = accrueAlways;
    this.fairShare = fairShare;
    this.clusterNodes = Math.max(1, clusterNodes);
    this.maxPartitionFactor = maxPartitionFactor;
    this.maxQosPriority = maxQosPriority;
  }

  /** @param nodes the job's node count */
  public long priority(Job job, int nodes, Partition partition, Qos qos, Instant now) {
    Long explicit = job.request().control().priority();
    if (explicit != null) {
      return explicit;
    }
    Instant agingSince = accrueAlways ? job.submitTime() : job.eligibleSince();
    double age = 0;
    if (agingSince != null && now.isAfter(agingSince) && !weights.maxAge().isZero()) {
      age = Math.min(1.0, Duration.between(agingSince, now).toSeconds() / (double) weights.maxAge().toSeconds());
    }
    double size = Math.min(1.0, nodes / (double) clusterNodes);
    double part = maxPartitionFactor <= 0 ? 0 : partition.priorityJobFactor() / (double) maxPartitionFactor;
    double q = maxQosPriority <= 0 || qos == null ? 0 : qos.priority() / (double) maxQosPriority;
    double sum = weights.age() * age
        + weights.fairShare() * fairShare.factor(job.account(), job.user())
        + weights.jobSize() * size
        + weights.partition() * part
        + weights.qos() * q;
    Integer nice = job.request().control().nice();
    return Math.max(0, Math.round(sum) - (nice == null ? 0 : nice));
  }
}
