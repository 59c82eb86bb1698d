package io.squall.core.model;

import io.squall.core.provider.CapacityType;
import java.util.EnumSet;
import java.util.Set;

/**
 * A quality of service, with the limits Slurm's QOS carries (resource_limits.html: "QOS specific
 * limits"). Limits count running jobs only; a job over one waits with the limit's reason.
 *
 * @param preempt QOS names whose jobs this QOS may preempt
 * @param preemptMode what happens to this QOS's jobs when they are preempted
 * @param grpTres GrpTRES: what all running jobs of the QOS may hold together
 * @param grpGpuMinutes GrpTRESMins=gres/gpu: GPU-minutes the QOS may use; null for no limit
 * @param runsOn what the machines of nodes its jobs are placed on may have been bought as (its
 *     capacity: spot only, on-demand only, or either); static nodes, with no such machine, always do
 * @param maxTresPerUser MaxTRESPerUser: what one user's running jobs of the QOS may hold together
 * @param maxJobsPerUser MaxJobsPerUser: how many jobs of the QOS one user may have running; null for no limit
 * @param maxSubmitJobsPerUser MaxSubmitJobsPerUser: how many jobs of the QOS one user may have pending
 *     or running; a submission past it is refused; null for no limit
 * @param usageFactor UsageFactor: what a job's usage is multiplied by before it is charged to
 *     fair-share and to GrpTRESMins (1 by default; 0: free)
 */
public record Qos(String name, int priority, Set<String> preempt, PreemptMode preemptMode,
    Tres grpTres, Long grpGpuMinutes, Set<CapacityType> runsOn, Tres maxTresPerUser, Integer maxJobsPerUser,
    Integer maxSubmitJobsPerUser, double usageFactor) {
  public Qos {
    preempt = Set.copyOf(preempt);
    runsOn = runsOn.isEmpty() ? EnumSet.allOf(CapacityType.class) : Set.copyOf(runsOn);
    java.util.Objects.requireNonNull(grpTres, "grpTres");
    java.util.Objects.requireNonNull(maxTresPerUser, "maxTresPerUser");
  }

  /** A QOS with GrpTRES on GPUs alone and no per-user limits. */
  public Qos(String name, int priority, Set<String> preempt, PreemptMode preemptMode, Integer grpGpus,
      Long grpGpuMinutes, Set<CapacityType> runsOn) {
    this(name, priority, preempt, preemptMode, Tres.ofGpus(grpGpus), grpGpuMinutes, runsOn, Tres.NONE, null, null, 1);
  }

  /** A QOS whose jobs run on nodes of either capacity type. */
  public Qos(String name, int priority, Set<String> preempt, PreemptMode preemptMode, Integer grpGpus,
      Long grpGpuMinutes) {
    this(name, priority, preempt, preemptMode, grpGpus, grpGpuMinutes, Set.of());
  }

  public static Qos normal() {
    return new Qos("normal", 0, Set.of(), PreemptMode.REQUEUE, null, null);
  }

  /** GrpTRES=gres/gpu, or null. */
  public Integer grpGpus() {
    return grpTres.gpus();
  }

  /** The QOS with these per-user limits. */
  public Qos withUserLimits(Tres perUser, Integer maxJobs, Integer maxSubmitJobs) {
    return new Qos(name, priority, preempt, preemptMode, grpTres, grpGpuMinutes, runsOn, perUser, maxJobs,
        maxSubmitJobs, usageFactor);
  }

  /** The QOS with this GrpTRES. */
  public Qos withGrpTres(Tres grp) {
    return new Qos(name, priority, preempt, preemptMode, grp, grpGpuMinutes, runsOn, maxTresPerUser, maxJobsPerUser,
        maxSubmitJobsPerUser, usageFactor);
  }

  /** The QOS with this UsageFactor. */
  public Qos withUsageFactor(double factor) {
    return new Qos(name, priority, preempt, preemptMode, grpTres, grpGpuMinutes, runsOn, maxTresPerUser,
        maxJobsPerUser, maxSubmitJobsPerUser, factor);
  }
}
