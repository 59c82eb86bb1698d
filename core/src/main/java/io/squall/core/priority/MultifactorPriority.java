package io.squall.core.priority;

import io.squall.core.model.Job;
import io.squall.core.model.Partition;
import io.squall.core.model.Qos;
import java.time.Duration;
import java.time.Instant;

/**
 * {@code priority = w_age*age + w_fs*fairshare + w_size*size + w_part*partition + w_qos*qos - nice},
 * each factor in [0, 1]; an explicit {@code --priority} replaces the sum, as in Slurm.
 */
public final class MultifactorPriority {
  private final PriorityWeights weights;
  private final FairShare fairShare;
  private final int clusterNodes;
  private final int maxPartitionFactor;
  private final int maxQosPriority;

  public MultifactorPriority(PriorityWeights weights, FairShare fairShare, int clusterNodes,
      int maxPartitionFactor, int maxQosPriority) {
    this.weights = weights;
    this.fairShare = fairShare;
    this.clusterNodes = Math.max(1, clusterNodes);
    this.maxPartitionFactor = maxPartitionFactor;
    this.maxQosPriority = maxQosPriority;
  }

  /**
   * @param eligibleSince when the job became eligible (submit time, or --begin when later)
   * @param nodes the job's node count
   */
  public long priority(Job job, Instant eligibleSince, int nodes, Partition partition, Qos qos, Instant now) {
    Long explicit = job.request().control().priority();
    if (explicit != null) {
      return explicit;
    }
    double age = 0;
    if (now.isAfter(eligibleSince) && !weights.maxAge().isZero()) {
      age = Math.min(1.0, Duration.between(eligibleSince, now).toSeconds() / (double) weights.maxAge().toSeconds());
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
