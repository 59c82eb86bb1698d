package io.squall.agent;

import io.squall.agent.Protocol.JobSpec;
import io.squall.agent.Protocol.TaskRequest;
import io.squall.agent.Protocol.TaskSlot;
import java.io.File;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The environments job processes start with. The controller decides a job's environment (its
 * {@code SLURM_*} variables and the user's exported ones); the agent adds only what this node
 * knows, so the agent's own environment never leaks into jobs.
 */
final class JobEnvironment {
  /** PATH's tail when the job's environment has no PATH of its own. */
  static final String DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

  /**
   * Taken from the agent when the job's environment lacks them: many programs need a HOME, and
   * sbatch or squeue inside a job must trust an https controller as the agent does (a CA file the
   * submitter named elsewhere is the submitter's to keep valid).
   */
  private static final List<String> INHERITED_VARIABLES = List.of("HOME", "USER", "LANG", CaFile.ENV);

  /**
   * Marks every job process with the work directory of the agent that started it, so that an
   * agent restarted there finds what its predecessor's jobs left running ({@link OrphanSweep}).
   */
  static final String AGENT_HOME = "SQUALL_AGENT_HOME";

  private JobEnvironment() {}

  /**
   * The batch script's environment: the job's, login variables it lacks, and the node-specific
   * variables of the protocol; PATH gets the tool directory (srun, scontrol, squall) in front.
   */
  static Map<String, String> forBatch(JobSpec spec, String nodeName, Path toolDir, Map<String, String> agentEnv) {
    Map<String, String> env = new LinkedHashMap<>(spec.environment());
    for (String name : INHERITED_VARIABLES) {
      if (!env.containsKey(name) && agentEnv.containsKey(name)) {
        env.put(name, agentEnv.get(name));
      }
    }
    String path = env.getOrDefault("PATH", DEFAULT_PATH);
    env.put("PATH", path.isEmpty() ? toolDir.toString() : toolDir + File.pathSeparator + path);
    env.put("CUDA_VISIBLE_DEVICES", gpuList(spec.gpus()));
    env.put("SLURM_GPUS_ON_NODE", Integer.toString(spec.gpus().size()));
    env.put("SLURMD_NODENAME", nodeName);
    env.put("SLURM_NODEID", "0");
    env.put("SQUALL_JOB_CREDENTIAL", spec.credential());
    env.put("SQUALL_AGENTS", agents(spec.nodes()));
    env.put(AGENT_HOME, toolDir.getParent().toString());
    return env;
  }

  /** The agent's own environment as jobs may inherit it: its CA file, from --ca-file too, under {@link CaFile#ENV}. */
  static Map<String, String> agentEnvironment(Map<String, String> env, Path caFile) {
    Map<String, String> agent = new LinkedHashMap<>(env);
    if (caFile != null) {
      agent.put(CaFile.ENV, caFile.toString());
    }
    return agent;
  }

  /** A task's environment: what srun sent plus the task's place in the step. */
  static Map<String, String> forTask(TaskRequest request, TaskSlot slot, String nodeName, Path home,
      List<Integer> gpus) {
    Map<String, String> env = new LinkedHashMap<>(request.environment());
    env.put("SLURM_PROCID", Integer.toString(slot.procid()));
    env.put("SLURM_LOCALID", Integer.toString(slot.localid()));
    env.put("SLURM_NODEID", Integer.toString(request.nodeid()));
    env.put("SLURM_STEP_ID", Integer.toString(request.step()));
    env.put("SLURM_STEP_NUM_TASKS", Integer.toString(request.ntasks()));
    env.put("SLURM_STEP_NODELIST", request.nodelist() == null ? nodeName : request.nodelist());
    env.put("SLURMD_NODENAME", nodeName);
    env.put("CUDA_VISIBLE_DEVICES", gpuList(gpus));
    // Set again here: the values srun passes on are the batch node's.
    env.put("SLURM_GPUS_ON_NODE", Integer.toString(gpus.size()));
    env.put(AGENT_HOME, home.toString());
    return env;
  }

  /** {@code [0, 1]} as {@code 0,1}, the form CUDA_VISIBLE_DEVICES takes. */
  static String gpuList(List<Integer> gpus) {
    StringJoiner joined = new StringJoiner(",");
    gpus.forEach(g -> joined.add(Integer.toString(g)));
    return joined.toString();
  }

  /** {@code node-1=http://..,node-2=http://..}, in allocation order: how srun finds the agents. */
  static String agents(Map<String, String> nodes) {
    StringJoiner joined = new StringJoiner(",");
    nodes.forEach((name, address) -> joined.add(name + "=" + address));
    return joined.toString();
  }
}
