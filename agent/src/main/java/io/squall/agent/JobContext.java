package io.squall.agent;

import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job srun runs in: the key the agents know the job by, the credential they expect, the
 * allocated nodes and each node's agent. Inside a batch job its environment describes it; on a
 * login node the controller's step grant does ({@code POST /v1/jobs/{id}/steps}).
 */
public record JobContext(String jobKey, String credential, List<String> nodes, Map<String, URI> agents) {
  static JobContext fromEnvironment(Map<String, String> env) throws StepException {
    String key = jobKey(env);
    if (key == null) {
      throw new StepException("not inside a job: SLURM_JOB_ID is not set. Here srun runs job steps inside a"
          + " batch script; submit one with sbatch");
    }
    String nodelist = required(env, "SLURM_JOB_NODELIST");
    String credential = required(env, "SQUALL_JOB_CREDENTIAL");
    String agentList = required(env, "SQUALL_AGENTS");
    List<String> nodes;
    try {
      nodes = Hostlist.expand(nodelist);
    } catch (HostlistException e) {
      throw new StepException("SLURM_JOB_NODELIST '" + nodelist + "': " + e.getMessage());
    }
    Map<String, URI> agents;
    try {
      agents = agents(agentList);
    } catch (IllegalArgumentException e) {
      throw new StepException(e.getMessage());
    }
    return new JobContext(key, credential, nodes, agents);
  }

  /**
   * SQUALL_AGENTS ({@code node-1=http://..,node-2=http://..}): each node's agent, in allocation
   * order.
   *
   * @throws IllegalArgumentException naming the entry that is not NODE=ADDRESS
   */
  static Map<String, URI> agents(String list) {
    Map<String, URI> agents = new LinkedHashMap<>();
    for (String entry : list.split(",")) {
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("SQUALL_AGENTS: '" + entry + "' is not NODE=ADDRESS");
      }
      try {
        agents.put(entry.substring(0, eq).trim(), URI.create(entry.substring(eq + 1).trim()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("SQUALL_AGENTS: bad address in '" + entry + "'");
      }
    }
    return agents;
  }

  /**
   * SQUALL_JOB_KEY ({@code 42_3}) when the controller set it, else built from Slurm's variables;
   * null outside a job.
   */
  static String jobKey(Map<String, String> env) {
    String key = env.get("SQUALL_JOB_KEY");
    if (key != null && !key.isBlank()) {
      return key;
    }
    String arrayJob = env.get("SLURM_ARRAY_JOB_ID");
    String arrayTask = env.get("SLURM_ARRAY_TASK_ID");
    if (arrayJob != null && arrayTask != null) {
      return arrayJob + "_" + arrayTask;
    }
    String id = env.get("SLURM_JOB_ID");
    return id == null || id.isBlank() ? null : id;
  }

  private static String required(Map<String, String> env, String name) throws StepException {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      throw new StepException(name + " is not set: this job was not started by a Squall agent");
    }
    return value;
  }

  /** The agent address of one of the job's nodes. */
  URI agent(String node) throws StepException {
    URI address = agents.get(node);
    if (address == null) {
      throw new StepException("no agent address for node " + node + " in SQUALL_AGENTS");
    }
    return address;
  }
}
