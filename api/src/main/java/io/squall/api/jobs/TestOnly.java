package io.squall.api.jobs;

import io.squall.api.config.ClusterLayout;
import io.squall.api.state.ClusterState;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.schedule.Action;
import io.squall.core.schedule.Plan;
import io.squall.core.schedule.Scheduler;
import io.squall.core.schedule.SchedulerConfig;
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
  private final Scheduler scheduler = new Scheduler(SchedulerConfig.defaults());

  public TestOnly(ClusterLayout layout) {
    this.layout = layout;
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

  /** A key no stored job has: one past every id in the state. */
  static JobKey probeKey(ClusterState state) {
    long max = 0;
    for (var j : state.jobs()) {
      max = Math.max(max, j.key().id());
    }
    return JobKey.of(max + 1);
  }
}
