package io.squall.core.money;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Splits what one instance billed among the jobs that held its node, by their share of the
 * node's GPUs (1 for a whole node: exclusive, or every GPU), at the price in force second by
 * second. A job pays for the time it holds the node, its boot included when it waits for it; the
 * time no job holds (a boot nobody waited for, idle before suspend) and the GPUs no job holds are
 * overhead. Conservation holds by construction: the jobs' dollars plus the overhead are what the
 * instance billed.
 */
public final class CostSplit {
  private CostSplit() {}

  /**
   * A job's hold on the node, from {@code from} to {@code to}.
   *
   * @param share its part of the node, from 0 to 1
   */
  public record Holding(String job, Instant from, Instant to, double share) {
    public Holding {
      if (!(share >= 0 && share <= 1)) {
        throw new IllegalArgumentException("job " + job + ": a share of a node is from 0 to 1, not " + share);
      }
    }
  }

  /**
   * The instance's bill: {@code billed} = the jobs' dollars + {@code overhead}.
   *
   * @param jobs by job key, in key order: sums over them come out the same run after run
   */
  public record Split(Map<String, Double> jobs, double overhead, double billed) {
    public Split {
      jobs = Collections.unmodifiableMap(new TreeMap<>(jobs));
    }
  }

  /**
   * A job's share of a node: its GPUs over the node's, the whole node when it has it exclusively
   * or takes every GPU; on a node with no GPU, its CPUs over the node's.
   */
  public static double share(int gpus, int nodeGpus, int cpus, int nodeCpus, boolean exclusive) {
    if (exclusive) {
      return 1;
    }
    if (nodeGpus > 0) {
      return Math.min(1, gpus / (double) nodeGpus);
    }
    return nodeCpus > 0 ? Math.min(1, cpus / (double) nodeCpus) : 1;
  }

  /**
   * @param offering the instance's offering key
   * @param launched when its billing began
   * @param gone when it ended (terminated), or the end of the period looked at
   * @param holdings the holds on its node; the parts outside [launched, gone) are not its
   * @param prices the prices in force (at least one of the offering known)
   */
  public static Split of(String offering, Instant launched, Instant gone, List<Holding> holdings, PriceSeries prices) {
    TreeSet<Instant> cuts = new TreeSet<>(List.of(launched, gone));
    for (Holding h : holdings) {
      cuts.add(clamp(h.from(), launched, gone));
      cuts.add(clamp(h.to(), launched, gone));
    }
    for (PricePoint p : prices.between(offering, launched, gone)) {
      cuts.add(clamp(p.from(), launched, gone));
      if (p.to() != null) {
        cuts.add(clamp(p.to(), launched, gone));
      }
    }
    Map<String, Double> jobs = new TreeMap<>();
    double overhead = 0;
    double billed = 0;
    List<Instant> at = new ArrayList<>(cuts);
    for (int i = 0; i + 1 < at.size(); i++) {
      Instant a = at.get(i);
      Instant b = at.get(i + 1);
      double usd = prices.dollars(offering, a, b);
      billed += usd;
      double held = 0;
      List<Holding> holding = new ArrayList<>();
      for (Holding h : holdings) {
        if (!h.from().isAfter(a) && h.to().isAfter(a)) {
          holding.add(h);
          held += h.share();
        }
      }
      // More held than the node has would be a bookkeeping error upstream: shared out, not billed twice.
      double scale = held > 1 ? 1 / held : 1;
      for (Holding h : holding) {
        jobs.merge(h.job(), usd * h.share() * scale, Double::sum);
      }
      overhead += usd * (1 - Math.min(held, 1));
    }
    return new Split(jobs, overhead, billed);
  }

  private static Instant clamp(Instant t, Instant from, Instant to) {
    return t.isBefore(from) ? from : t.isAfter(to) ? to : t;
  }
}
