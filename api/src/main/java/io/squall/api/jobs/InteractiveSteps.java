package io.squall.api.jobs;

import io.squall.api.agents.BatchEnvironment;
import io.squall.api.auth.Caller;
import io.squall.api.state.ApiException;
import io.squall.api.state.NodeStatus;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Steps of interactive allocations ({@code POST /v1/jobs/{id}/steps}): what a login node's srun
 * needs to start a step on the allocation's nodes itself, as the srun inside a batch job does:
 * the step's number, the job's credential, each node's agent and the allocation's environment.
 *
 * <p>Only the job's owner (and operators, who may control every job) gets the credential; the
 * agents take it for that job alone, while it runs. Step numbers count from 0 per allocation in
 * this controller's memory: after a restart they start again from 0, which only matters to a
 * step still running from before (a signal for step N then also reaches the old step N).
 */
@Singleton
public final class InteractiveSteps {
  private final StateWriter writer;
  private final JobAccess access;
  private final BatchEnvironment environment;
  private final Map<JobKey, AtomicInteger> steps = new ConcurrentHashMap<>();

  public InteractiveSteps(StateWriter writer, JobAccess access, BatchEnvironment environment) {
    this.writer = writer;
    this.access = access;
    this.environment = environment;
  }

  /**
   * A new step of the caller's running allocation.
   *
   * @throws ApiException 404 for a job the caller may not see, 409 for a batch job or an allocation
   *     that is not running (pending, its nodes still powering up, being stopped, ended)
   */
  public Map<String, Object> grant(Caller caller, String id) {
    StoredJob j = access.visible(caller, id);
    String key = j.key().toString();
    if (!j.submission().interactive()) {
      throw ApiException.conflict("job " + key + " is a batch job: its steps are started by srun in its script,"
          + " not from outside");
    }
    JobState state = j.job().state();
    if (state != JobState.RUNNING || j.ending() != null) {
      throw ApiException.conflict("job " + key + " is " + (j.ending() != null ? "ending" : state.name())
          + (state == JobState.PENDING || state == JobState.CONFIGURING ? ": its allocation is not ready yet"
              : ": no step can start in it"));
    }
    List<Map<String, Object>> nodes = new ArrayList<>();
    for (GpuGrant g : j.job().allocation()) {
      NodeStatus n = writer.state().node(g.node());
      if (n == null || n.address() == null || !n.isUp()) {
        throw ApiException.conflict("job " + key + ": node " + g.node() + " has no agent up; no step can start");
      }
      Map<String, Object> node = new LinkedHashMap<>();
      node.put("name", g.node());
      node.put("address", n.address());
      nodes.add(node);
    }
    // Finished allocations' counters go, so the map holds the running ones only.
    steps.keySet().removeIf(k -> {
      StoredJob other = writer.state().job(k);
      return other == null || other.job().state().isFinished();
    });
    int step = steps.computeIfAbsent(j.key(), k -> new AtomicInteger()).getAndIncrement();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("job_id", j.job().jobId());
    m.put("job_key", key);
    m.put("step", step);
    m.put("credential", j.credential());
    m.put("nodes", nodes);
    m.put("environment", environment.allocationEnvironment(j));
    return m;
  }

  /** The allocation's environment, for salloc's command: {@code GET /v1/jobs/{id}/environment}. */
  public Map<String, Object> environment(Caller caller, String id) {
    StoredJob j = access.visible(caller, id);
    if (!j.job().state().holdsResources() || j.job().allocation().isEmpty()) {
      throw ApiException.conflict("job " + j.key() + " is " + j.job().state().name() + ": it has no allocation");
    }
    return Map.of("environment", environment.allocationEnvironment(j));
  }
}
