package io.squall.core.sbatch;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A validated job request: what the user asked for, normalized, before any scheduling. Values
 * the user did not give are null (defaults belong to the partition and the scheduler).
 */
public record JobRequest(
    String jobName,
    String script,
    Resources resources,
    Placement placement,
    Timing timing,
    Files files,
    Control control,
    Map<String, String> unhonoured) {

  /**
   * @param unhonoured the options given that Squall stores but cannot honour, by long name, in
   *     sbatch(1)'s order, with their values ("" for a flag); the parser warned about each
   */
  public JobRequest {
    unhonoured = Collections.unmodifiableMap(new LinkedHashMap<>(unhonoured));
  }

  /** The request held ({@code scontrol hold}, {@code --hold}) or released. */
  public JobRequest withHold(boolean hold) {
    Control c = control;
    if (c.hold() == hold) {
      return this;
    }
    return new JobRequest(jobName, script, resources, placement, timing, files, new Control(c.array(),
        c.dependency(), c.requeue(), hold, c.nice(), c.priority(), c.signal(), c.account(), c.qos(), c.comment(),
        c.mailType(), c.mailUser(), c.waitAllNodes()), unhonoured);
  }

  /**
   * Nodes, tasks, CPUs, GPUs and memory.
   *
   * @param gpus {@code --gpus}: GPUs for the whole job
   * @param gpusPerNode from {@code --gpus-per-node} or {@code --gres=gpu[:type]:N}
   * @param memPerNodeMb {@code --mem}; 0 means the whole memory of each node
   * @param otherGres {@code --gres} entries other than GPUs ({@code nvme:2}), as given: the
   *     server refuses those its nodes do not offer, as slurmctld does
   */
  public record Resources(
      Integer nodesMin, Integer nodesMax, Integer ntasks, Integer ntasksPerNode,
      Integer cpusPerTask, Integer gpus, Integer gpusPerNode, Integer gpusPerTask,
      Integer ntasksPerGpu, Integer cpusPerGpu, String gpuType,
      Long memPerNodeMb, Long memPerCpuMb, Long memPerGpuMb, Exclusive exclusive, List<String> otherGres) {
    public Resources {
      otherGres = List.copyOf(otherGres);
    }
  }

  /**
   * Where the job may run.
   *
   * @param partitions in preference order ({@code -p a,b}); empty means the default partition
   * @param switches {@code --switches=N}: most leaf switches (placement groups) the job may span
   */
  public record Placement(
      List<String> partitions, Constraint constraint, String constraintText,
      List<String> nodelist, List<String> exclude, Integer switches,
      Integer switchesWaitMinutes, String reservation, String gpuBind, String hint,
      String distribution) {
    public Placement {
      partitions = List.copyOf(partitions);
      nodelist = List.copyOf(nodelist);
      exclude = List.copyOf(exclude);
    }
  }

  /** Time limit and window, in minutes and instants. */
  public record Timing(Integer timeLimitMinutes, Integer timeMinMinutes, Instant begin, Instant deadline) {}

  /** Files and environment of the batch step. */
  public record Files(String output, String error, String input, String chdir, String openMode,
      String export, String containerImage) {}

  /** Everything else that steers the job's life. */
  public record Control(
      ArraySpec array, Dependency dependency, Boolean requeue, boolean hold, Integer nice,
      Long priority, SignalSpec signal, String account, String qos, String comment,
      String mailType, String mailUser, Boolean waitAllNodes) {}
}
