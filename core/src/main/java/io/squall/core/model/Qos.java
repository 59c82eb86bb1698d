package io.squall.core.model;

import java.util.Set;

/**
 * A quality of service.
 *
 * @param preempt QOS names whose jobs this QOS may preempt
 * @param preemptMode what happens to this QOS's jobs when they are preempted
 * @param grpGpus GrpTRES=gres/gpu: GPUs all running jobs of the QOS may hold together; null for no limit
 * @param grpGpuMinutes GrpTRESMins=gres/gpu: GPU-minutes the QOS may use; null for no limit
 */
public record Qos(String name, int priority, Set<String> preempt, PreemptMode preemptMode,
    Integer grpGpus, Long grpGpuMinutes) {
  public Qos {
    preempt = Set.copyOf(preempt);
  }

  public static Qos normal() {
    return new Qos("normal", 0, Set.of(), PreemptMode.REQUEUE, null, null);
  }
}
