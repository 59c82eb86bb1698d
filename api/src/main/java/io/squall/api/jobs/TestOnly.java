package io.squall.api.jobs;

import io.squall.api.config.ClusterLayout;
import io.squall.api.state.ClusterState;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.schedule.Action;
import io.squall.core.schedule.Plan;
import io.squall.core.schedule.Scheduler;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * sbatch --test-only: runs the real scheduler on the current state with the job added, and
 * reports when and where it would start, without queueing it.
 */
@Singleton
public final class TestOnly {
  private final ClusterLayout layout;
  private final Scheduler scheduler;

  public TestOnly(ClusterLayout layout, Scheduler scheduler) {
    this.layout = layout;
    this.scheduler = scheduler;
  }

  public Map<String, Object> evaluate(ClusterState state, Job candidate, Instant now) {
    ClusterSnapshot current = state.snapshot(layout);
    List<Job> jobs = new ArrayList<>(current.jobs());
    jobs.add(candidate);
    Plan plan = scheduler.cycle(current.withJobs(jobs), now);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("test_only", true);
    m.put("job_id", null);
    m.put("partition", null);
    m.put("expected_start", null);
    m.put("nodes", null);
    m.put("reason", null);
    for (Action a : plan.actions()) {
      if (a.job().id() != candidate.key().id()) {
        continue;
      }
      if (a instanceof Action.Start s) {
        List<String> nodes = new ArrayList<>();
        int gpus = 0;
        for (GpuGrant g : s.grants()) {
          nodes.add(g.node());
          gpus += g.gpuIndices().size();
        }
        m.put("partition", s.partition());
        m.put("expected_start", now.toString());
        m.put("nodes", Hostlist.compress(nodes));
        m.put("num_gpus", gpus);
        m.put("reason", "None");
        return m;
      }
      if (a instanceof Action.Wait w) {
        m.put("expected_start", w.expectedStart() == null ? null : w.expectedStart().toString());
        m.put("reason", w.reason().slurmName());
        return m;
      }
    }
    return m;
  }

  /**
   * The id the candidate is evaluated under: above every real id, so among equal priorities it
   * comes last, as the next submission would.
   */
  static final long PROBE_ID = Long.MAX_VALUE;
}
