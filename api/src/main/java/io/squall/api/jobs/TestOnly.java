package io.squall.api.jobs;

import io.squall.api.config.ClusterLayout;
import io.squall.api.money.BudgetWatch;
import io.squall.api.money.PartitionPrices;
import io.squall.api.money.Usd;
import io.squall.api.state.ClusterState;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.Partition;
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
  private final BudgetWatch budgets;
  private final PartitionPrices prices;

  public TestOnly(ClusterLayout layout, Scheduler scheduler, BudgetWatch budgets, PartitionPrices prices) {
    this.layout = layout;
    this.scheduler = scheduler;
    this.budgets = budgets;
    this.prices = prices;
  }

  public Map<String, Object> evaluate(ClusterState state, Job candidate, Instant now) {
    ClusterSnapshot current = state.snapshot(layout).withBudgets(budgets.limits(now));
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
        cost(m, candidate, s.partition());
        return m;
      }
      if (a instanceof Action.Wait w) {
        m.put("expected_start", w.expectedStart() == null ? null : w.expectedStart().toString());
        m.put("reason", w.reason().slurmName());
        cost(m, candidate, firstPartition(candidate));
        return m;
      }
    }
    return m;
  }

  /**
   * What the job may cost in the partition: its GPUs for its whole time limit, all on the
   * cheapest offering it may use (spot) up to all on the dearest (on demand). Unknown (null)
   * without a time limit where GPU time is billed, or before the partition's prices are known.
   */
  private void cost(Map<String, Object> m, Job job, String partition) {
    m.put("cost_usd_min", null);
    m.put("cost_usd_max", null);
    Partition p = partition == null ? null : layout.partitions().stream()
        .filter(x -> x.name().equals(partition)).findFirst().orElse(null);
    PartitionPrices.Range r = p == null ? null : prices.perGpuHour().get(p.name());
    if (r == null) {
      return;
    }
    int largest = p.nodes().stream().mapToInt(n -> layout.node(n).gpus()).max().orElse(0);
    Scheduler.Size size = Scheduler.sizeIn(job, p, largest);
    if (size.limitSeconds() == Long.MAX_VALUE) {
      if (r.dearest() == 0 || size.gpus() == 0) {
        m.put("cost_usd_min", 0.0);
        m.put("cost_usd_max", 0.0);
      }
      return;
    }
    double gpuHours = size.gpus() * size.limitSeconds() / 3600.0;
    m.put("cost_usd_min", Usd.round(gpuHours * r.cheapest()));
    m.put("cost_usd_max", Usd.round(gpuHours * r.dearest()));
  }

  /** The partition a waiting job would run in first: the first it names, or the default. */
  private String firstPartition(Job job) {
    List<String> named = job.request().placement().partitions();
    if (!named.isEmpty()) {
      return named.get(0);
    }
    return layout.partitions().stream().filter(Partition::isDefault).map(Partition::name).findFirst().orElse(null);
  }

  /**
   * The id the candidate is evaluated under: above every real id, so among equal priorities it
   * comes last, as the next submission would.
   */
  static final long PROBE_ID = Long.MAX_VALUE;
}
