package io.squall.api.simulate;

import io.squall.core.model.JobState;
import io.squall.core.money.Budget;
import io.squall.simulate.ElasticSimulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The headline figures of one what-if run, in the order the table and the JSON show them: money
 * (as {@code squall bench} counts it), waits (from submission to when the job first ran, its
 * nodes booted: how long people waited), their mean, p50 and p95 overall and by job size, bounded
 * slowdown, GPU utilisation (of the GPUs billed, and of static partitions' GPUs over the run),
 * interruptions and deadlines, and spend per account against budget.
 */
public final class WhatIfFigures {
  /** Job sizes waits are broken down by, in GPUs (upper bounds, inclusive). */
  static final int[] SIZES = {8, 64, Integer.MAX_VALUE};
  /** Bounded slowdown counts runs shorter than this as this long (the usual 10 s). */
  static final Duration SLOWDOWN_BOUND = Duration.ofSeconds(10);

  private WhatIfFigures() {}

  /**
   * @param work the jobs as replayed, in the order the simulation numbered them (job id 1 first)
   * @param staticGpus the static partitions' GPUs, by partition: their jobs' work counts against
   *     those GPUs over the run ({@code static_gpu_utilisation}), the elastic ones' against the GPUs
   *     billed ({@code gpu_utilisation})
   */
  public static Map<String, Object> of(ElasticSimulation.Result r, List<ElasticSimulation.JobSpec> work,
      Map<String, Integer> staticGpus, List<Budget> budgets) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("jobs", r.jobs());
    f.put("jobs_completed", r.jobsCompleted());
    f.put("jobs_held", r.jobsHeld());
    f.put("finished", r.finished()); // false: the run stopped at its horizon with work left
    f.put("dollars_billed", Math.round(r.money().billed()));
    f.put("lower_bound_dollars", Math.round(r.money().lowerBound()));
    f.put("cost_ratio", round(r.money().ratio(), 3));
    f.put("makespan_h", round(r.makespan().toSeconds() / 3600.0, 2));
    List<Long> all = new ArrayList<>();
    List<List<Long>> bySize = new ArrayList<>();
    for (int i = 0; i < SIZES.length; i++) {
      bySize.add(new ArrayList<>());
    }
    double slowdown = 0;
    int ended = 0;
    double usefulGpuHours = 0;
    double usefulStaticGpuHours = 0;
    int missed = 0;
    Map<String, Double> spent = new TreeMap<>();
    for (ElasticSimulation.JobOutcome o : r.outcomes()) {
      ElasticSimulation.JobSpec spec = work.get((int) o.id() - 1);
      spent.merge(o.account(), o.usd(), Double::sum);
      if (o.firstRun() != null) {
        long wait = o.firstRun().minus(o.submitted()).toSeconds();
        all.add(wait);
        bySize.get(sizeBucket(o.gpus())).add(wait);
      }
      if (o.ended() != null && o.state() == JobState.COMPLETED) {
        long run = Math.max(spec.runtime().toSeconds(), SLOWDOWN_BOUND.toSeconds());
        slowdown += Math.max(1.0, (double) o.ended().minus(o.submitted()).toSeconds() / run);
        ended++;
        double useful = spec.runtime().toSeconds() / 3600.0 * o.gpus();
        if (staticGpus.containsKey(o.partition())) {
          usefulStaticGpuHours += useful;
        } else {
          usefulGpuHours += useful;
        }
      }
      missed += o.missedDeadline() ? 1 : 0;
    }
    putWaits(f, "wait", all);
    for (int i = 0; i < SIZES.length; i++) {
      putWaits(f, "wait_" + sizeName(i), bySize.get(i));
    }
    f.put("bounded_slowdown_mean", ended == 0 ? 0 : round(slowdown / ended, 2));
    f.put("gpu_utilisation", r.billedGpuHours() == 0 ? 0 : round(usefulGpuHours / r.billedGpuHours(), 3));
    if (!staticGpus.isEmpty()) {
      double ownedGpuHours = staticGpus.values().stream().mapToInt(Integer::intValue).sum()
          * r.makespan().toSeconds() / 3600.0;
      f.put("static_gpu_utilisation", ownedGpuHours == 0 ? 0 : round(usefulStaticGpuHours / ownedGpuHours, 3));
    }
    f.put("interruptions", r.interruptions());
    f.put("lost_gpu_hours", round(r.lostGpuHours(), 2));
    f.put("deadlines_missed", missed);
    Map<String, Object> accounts = new LinkedHashMap<>();
    for (Map.Entry<String, Double> e : spent.entrySet()) {
      Map<String, Object> a = new LinkedHashMap<>();
      a.put("spent_usd", Math.round(e.getValue()));
      budgets.stream().filter(b -> b.account().equals(e.getKey())).findFirst().ifPresent(b -> {
        a.put("soft_usd", b.softUsd());
        a.put("hard_usd", b.hardUsd());
      });
      accounts.put(e.getKey(), a);
    }
    f.put("accounts", accounts);
    return f;
  }

  private static void putWaits(Map<String, Object> f, String name, List<Long> waits) {
    List<Long> sorted = waits.stream().sorted().toList();
    f.put(name + "_mean_s", sorted.isEmpty() ? 0 : Math.round(sorted.stream().mapToLong(Long::longValue).average()
        .orElse(0)));
    f.put(name + "_p50_s", percentile(sorted, 50));
    f.put(name + "_p95_s", percentile(sorted, 95));
  }

  /** The nearest-rank percentile; 0 for no value. */
  static long percentile(List<Long> sorted, int p) {
    if (sorted.isEmpty()) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.size());
    return sorted.get(Math.max(0, rank - 1));
  }

  private static int sizeBucket(int gpus) {
    int i = 0;
    while (gpus > SIZES[i]) {
      i++;
    }
    return i;
  }

  /** {@code 1_8_gpus}, {@code 9_64_gpus}, {@code 65_plus_gpus}. */
  private static String sizeName(int i) {
    int from = i == 0 ? 1 : SIZES[i - 1] + 1;
    return SIZES[i] == Integer.MAX_VALUE ? from + "_plus_gpus" : from + "_" + SIZES[i] + "_gpus";
  }

  private static double round(double v, int places) {
    double scale = Math.pow(10, places);
    return Math.round(v * scale) / scale;
  }
}
