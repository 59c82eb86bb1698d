package io.squall.core.model;

import io.squall.core.provider.CapacityType;
import java.util.EnumSet;
import java.util.Set;

/**
 * A quality of service.
 *
 * @param preempt QOS names whose jobs this QOS may preempt
 * @param preemptMode what happens to this QOS's jobs when they are preempted
 * @param grpGpus GrpTRES=gres/gpu: GPUs all running jobs of the QOS may hold together; null for no limit
 * @param grpGpuMinutes GrpTRESMins=gres/gpu: GPU-minutes the QOS may use; null for no limit
 * @param runsOn what the machines of nodes its jobs are placed on may have been bought as (its
 *     capacity: spot only, on-demand only, or either); static nodes, with no such machine, always do
 */
public record Qos(String name, int priority, Set<String> preempt, PreemptMode preemptMode,
    Integer grpGpus, Long grpGpuMinutes, Set<CapacityType> runsOn) {
  public Qos {
    preempt = Set.copyOf(preempt);
    runsOn = runsOn.isEmpty() ? EnumSet.allOf(CapacityType.class) : Set.copyOf(runsOn);
  }

  /** A QOS whose jobs run on nodes of either capacity type. */
  public Qos(String name, int priority, Set<String> preempt, PreemptMode preemptMode, Integer grpGpus,
      Long grpGpuMinutes) {
    this(name, priority, preempt, preemptMode, grpGpus, grpGpuMinutes, Set.of());
  }

  public static Qos normal() {
    return new Qos("normal", 0, Set.of(), PreemptMode.REQUEUE, null, null);
  }
}
