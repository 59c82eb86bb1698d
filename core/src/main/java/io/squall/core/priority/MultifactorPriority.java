package io.squall.core.priority;

import io.squall.core.model.Job;
import io.squall.core.model.Partition;
import io.squall.core.model.Qos;
import io.squall.core.sbatch.TimeLimit;
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
 *
 * <p>Job size is the job's nodes over the cluster's. With PriorityFlags=SMALL_RELATIVE_TO_TIME
 * it is that divided by the job's time limit in minutes (slurm.conf(5): "the job's size component
 * will be based upon not the job size alone, but the job's size divided by its time limit";
 * set_priority_factors() divides by {@code time_limit}, the partition's MaxTime when the job has
 * none), so a short job ranks above a long one of the same size, and an UNLIMITED one gets none.
 * With PriorityFavorSmall=YES (slurm.conf(5): "the smaller the job, the greater the job size
 * factor"; set_priority_factors() takes 1.0 minus the factor above, relative to time or not) a
 * one-node job gets the most and a whole-cluster job none.
 */
public final class MultifactorPriority {
  private final PriorityWeights weights;
  private final FairShare fairShare;
  private final int clusterNodes;
  private final int maxPartitionFactor;
  private final int maxQosPriority;
  private final boolean accrueAlways;
  private final boolean smallRelativeToTime;
  private final boolean favorSmall;

  /**
   * @param accrueAlways Slurm's PriorityFlags=ACCRUE_ALWAYS: age counts from submission
   * @param smallRelativeToTime Slurm's PriorityFlags=SMALL_RELATIVE_TO_TIME: job size over time limit
   * @param favorSmall Slurm's PriorityFavorSmall=YES: the job size factor is 1 minus the above
   */
  public MultifactorPriority(PriorityWeights weights, FairShare fairShare, int clusterNodes,
      int maxPartitionFactor, int maxQosPriority, boolean accrueAlways, boolean smallRelativeToTime,
      boolean favorSmall) {
    this.weights = weights;
    this.favorSmall = favorSmall;
    this.accrueAlways = accrueAlways;
    this.smallRelativeToTime = smallRelativeToTime;
    this.fairShare = fairShare;
    this.clusterNodes = Math.max(1, clusterNodes);
    this.maxPartitionFactor = maxPartitionFactor;
    this.maxQosPriority = maxQosPriority;
  }

  /**
   * The factors of a job's priority, each in [0, 1] (what {@code sprio -n} shows), and what
   * adjusts it: its nice, or a {@code --priority} that replaces the sum.
   *
   * @param explicit the job's {@code --priority}, or null
   */
  public record Factors(double age, double fairShare, double jobSize, double partition, double qos, int nice,
      Long explicit) {}

  /** @param nodes the job's node count */
  public long priority(Job job, int nodes, Partition partition, Qos qos, Instant now) {
    return priority(factors(job, nodes, partition, qos, now));
  }

  /** @param nodes the job's node count */
  public Factors factors(Job job, int nodes, Partition partition, Qos qos, Instant now) {
    Instant agingSince = accrueAlways ? job.submitTime() : job.eligibleSince();
    double age = 0;
    if (agingSince != null && now.isAfter(agingSince) && !weights.maxAge().isZero()) {
      age = Math.min(1.0, Duration.between(agingSince, now).toSeconds() / (double) weights.maxAge().toSeconds());
    }
    double size = Math.min(1.0, nodes / (double) clusterNodes);
    if (smallRelativeToTime) {
      int limit = partition.timeLimitMinutes(job.request().timing().timeLimitMinutes());
      size = limit == TimeLimit.UNLIMITED ? 0 : size / Math.max(1, limit);
    }
    if (favorSmall) {
      size = 1 - size;
    }
    double part = maxPartitionFactor <= 0 ? 0 : partition.priorityJobFactor() / (double) maxPartitionFactor;
    double q = maxQosPriority <= 0 || qos == null ? 0 : qos.priority() / (double) maxQosPriority;
    Integer nice = job.request().control().nice();
    return new Factors(age, fairShare.factor(job.account(), job.user()), size, part, q, nice == null ? 0 : nice,
        job.request().control().priority());
  }

  /** The weighted sum of the factors minus nice, never below 0; an explicit priority as it is. */
  public long priority(Factors f) {
    if (f.explicit() != null) {
      return f.explicit();
    }
    double sum = weights.age() * f.age()
        + weights.fairShare() * f.fairShare()
        + weights.jobSize() * f.jobSize()
        + weights.partition() * f.partition()
        + weights.qos() * f.qos();
    return Math.max(0, Math.round(sum) - f.nice());
  }
}
