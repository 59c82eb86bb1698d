package io.squall.cli.service;

import java.util.List;
import java.util.Map;

/**
 * {@code POST /v1/jobs/{id}/steps}: what a login node's srun needs to start a step in an
 * interactive allocation itself, through the nodes' agents.
 *
 * @param jobKey the key the agents know the job by ({@code 42})
 * @param credential the job's secret, which its agents take for its steps
 * @param nodes the allocation's nodes in order, each with its agent's address
 * @param environment the allocation's {@code SLURM_*} variables
 */
public record StepGrant(Long jobId, String jobKey, Integer step, String credential, List<Node> nodes,
    Map<String, String> environment) {
  /** Reads one from the service's JSON. */
  static StepGrant from(JsonAnswer a) {
    return new StepGrant(
        a.longValue("job_id"),
        a.string("job_key"),
        a.integer("step"),
        a.string("credential"),
        a.objects("nodes", Node::from),
        a.stringMap("environment"));
  }

  /** One node of the allocation and its agent's base address. */
  public record Node(String name, String address) {
    /** Reads one from the service's JSON. */
    static Node from(JsonAnswer a) {
      return new Node(
          a.string("name"),
          a.string("address"));
    }
  }
}
