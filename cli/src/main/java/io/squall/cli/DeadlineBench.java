package io.squall.cli;

import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import io.squall.core.time.ManualClock;
import io.squall.simulate.ElasticSimulation;
import io.squall.simulate.SimulatedCloud;
import io.squall.simulate.SimulatedProvider;
import io.squall.simulate.TraceReclaims;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code squall bench deadline}: jobs with deadlines on spot that the cloud takes back, the
 * deadline rule ({@code UniformProgress}, through the controller's own {@code PurchaseRules} and
 * fleet engine) against the same jobs without it (spot first, on-demand after the partition's wait).
 *
 * <p>Workload: {@code --jobs} (100) jobs sampled with the seed from the Philly trace as
 * {@code bench elastic} samples them (runtimes capped at {@link ElasticBench#MAX_RUNTIME}),
 * submitted one after another at seeded exponential gaps of {@link #MEAN_GAP} on average. Half of
 * them (seeded) get a deadline of 1.5 × their runtime after submission, the others 3 ×, and at
 * least {@link #LEAST_SLACK} more than their runtime: on-demand must be able to meet a deadline
 * (boot plus the time limit's 5 min over the runtime), or no policy could.
 *
 * <p>Cloud, reclaims and controller as {@code bench interruptions} ({@link InterruptionBench}):
 * p5.48xlarge in us-east-1, seeded spot capacities and spot launch failures, each spot zone
 * following a 2022 AWS spot availability trace at {@link #RATE} interruptions per spot node-hour
 * on average over the trace (not calibrated), which the provider also publishes as its rate;
 * jobs checkpoint on the signal and every 30 min. {@link #NODES} nodes: enough that no job waits
 * for a node of the partition, so that a missed deadline is the purchase's doing.
 */
final class DeadlineBench {
  static final Duration MEAN_GAP = Duration.ofMinutes(3);
  static final Duration LEAST_SLACK = Duration.ofMinutes(15);
  static final double RATE = 0.5;
  static final int NODES = 512;

  private DeadlineBench() {}

  /** One run's figures. */
  record Figures(int jobs, int withDeadline, int missed, int completed, double billed, double allOnDemand,
      double billedGpuHours) {
    double ratio() {
      return allOnDemand > 0 ? billed / allOnDemand : 0;
    }
  }

  static int run(Map<String, String> opts, PrintStream out) {
    int jobs = Integer.parseInt(opts.getOrDefault("jobs", "100"));
    long seed = Long.parseLong(opts.getOrDefault("seed", "1"));
    long t0 = System.nanoTime();
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Offering> catalogue = ElasticBench.offerings();
    List<ElasticSimulation.JobSpec> work = workload(jobs, rnd.split());
    long providerSeed = rnd.nextLong();
    Map<String, Integer> capacities = SimulatedCloud.spotCapacities(catalogue, rnd.split());
    long reclaimSeed = rnd.nextLong();
    List<ElasticSimulation.JobSpec> noDeadlines = work.stream()
        .map(j -> new ElasticSimulation.JobSpec(j.submitAt(), j.nodes(), j.gpusPerNode(), j.runtime())).toList();

    ElasticSimulation.Result a = simulate(work, catalogue, capacities, providerSeed, reclaimSeed);
    ElasticSimulation.Result b = simulate(noDeadlines, catalogue, capacities, providerSeed, reclaimSeed);
    Figures rule = figures(a, work, catalogue);
    Figures none = figures(b, work, catalogue);
    long wallMs = (System.nanoTime() - t0) / 1_000_000;

    out.printf(Locale.ROOT, "deadline bench: %d Philly jobs (seed %d, one every %d min on average, runtime capped at "
        + "%d h), deadlines 1.5x or 3x runtime (at least runtime + %d min), %d %s nodes, spot reclaims by the AWS "
        + "availability traces at %s per spot node-hour: with the deadline rule %d of %d deadlines missed, %d jobs "
        + "completed, billed $%.0f vs $%.0f all on-demand (ratio %.3f); without it (spot, then on-demand after %s) "
        + "%d missed, billed $%.0f (ratio %.3f); %d ms wall%n", jobs, seed, MEAN_GAP.toMinutes(),
        ElasticBench.MAX_RUNTIME.toHours(), LEAST_SLACK.toMinutes(), NODES, ElasticBench.INSTANCE_TYPE, RATE,
        rule.missed(), rule.withDeadline(), rule.completed(), rule.billed(), rule.allOnDemand(), rule.ratio(),
        InterruptionBench.POLICY.onDemandAfter().toMinutes() + " min", none.missed(), none.billed(), none.ratio(),
        wallMs);
    for (ElasticSimulation.JobOutcome o : a.outcomes()) {
      ElasticSimulation.JobSpec spec = work.get((int) o.id() - 1);
      if (o.missedDeadline()) {
        out.printf(Locale.ROOT, "missed with the rule: job %d (%d x %d GPUs, runtime %s, submitted %s, deadline %s, "
            + "first start %s, ended %s %s, last pending reason %s, restarts %d)%n", o.id(), spec.nodes(),
            spec.gpusPerNode(), spec.runtime(), o.submitted(), o.deadline(), o.firstStart(), o.ended(), o.state(),
            o.pendingReason(), Math.max(0, o.starts().size() - 1));
      }
    }
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("jobs", rule.jobs());
    line.put("deadlines", rule.withDeadline());
    line.put("deadlines_missed", rule.missed());
    line.put("jobs_completed", rule.completed());
    line.put("dollars_billed", Math.round(rule.billed()));
    line.put("dollars_all_on_demand", Math.round(rule.allOnDemand()));
    line.put("ratio", round3(rule.ratio()));
    line.put("deadlines_missed_without_rule", none.missed());
    line.put("dollars_billed_without_rule", Math.round(none.billed()));
    line.put("ratio_without_rule", round3(none.ratio()));
    out.println(Json.write(line));
    return 0;
  }

  /** Philly jobs at exponential gaps, each with a deadline of 1.5 or 3 times its runtime. */
  static List<ElasticSimulation.JobSpec> workload(int count, SplittableRandom rnd) {
    return ElasticBench.arriving(count, MEAN_GAP, rnd, j -> {
      double factor = rnd.nextBoolean() ? 1.5 : 3.0;
      Duration deadline = Duration.ofMillis((long) (j.runtime().toMillis() * factor));
      Duration least = j.runtime().plus(LEAST_SLACK);
      deadline = deadline.compareTo(least) < 0 ? least : deadline;
      return j.withDeadline(Duration.ofSeconds((deadline.toMillis() + 999) / 1000));
    });
  }

  private static ElasticSimulation.Result simulate(List<ElasticSimulation.JobSpec> work, List<Offering> catalogue,
      Map<String, Integer> capacities, long providerSeed, long reclaimSeed) {
    List<String> spotZones = catalogue.stream().filter(o -> o.capacityType() == CapacityType.SPOT)
        .map(Offering::zone).toList();
    TraceReclaims reclaims = TraceReclaims.assign(ElasticBench.START, spotZones, InterruptionBench.traces(), RATE,
        InterruptionBench.BASELINE, InterruptionBench.NOTICE, reclaimSeed);
    ManualClock clock = new ManualClock(ElasticBench.START);
    SimulatedProvider provider = SimulatedCloud.provider(clock, catalogue, capacities, new SplittableRandom(providerSeed))
        .reclaims(reclaims).publishedInterruptionRate(RATE);
    ElasticSimulation.Setup setup = ElasticSimulation.Setup.of("bench", "gpu", ElasticBench.nodes(NODES),
        InterruptionBench.POLICY).withSchedulerInterval(Duration.ofSeconds(10)).withMaxTime(Duration.ofDays(10));
    return new ElasticSimulation(setup, clock, provider, InterruptionBench.RULES).run(work);
  }

  /**
   * Deadlines missed (against the workload's deadlines, whether the run knew them or not), the
   * bill, and the run's billed GPU-hours at the cheapest on-demand price per GPU-hour.
   */
  static Figures figures(ElasticSimulation.Result r, List<ElasticSimulation.JobSpec> work, List<Offering> catalogue) {
    int missed = 0;
    int withDeadline = 0;
    int completed = 0;
    for (ElasticSimulation.JobOutcome o : r.outcomes()) {
      ElasticSimulation.JobSpec spec = work.get((int) o.id() - 1);
      boolean done = o.state() == io.squall.core.model.JobState.COMPLETED;
      completed += done ? 1 : 0;
      if (spec.deadline() != null) {
        withDeadline++;
        Duration due = spec.submitAt().plus(spec.deadline());
        if (!done || o.ended().compareTo(due) > 0) {
          missed++;
        }
      }
    }
    double onDemandPerNodeHour = catalogue.stream().filter(o -> o.capacityType() == CapacityType.ON_DEMAND)
        .mapToDouble(Offering::pricePerHour).min().orElse(0);
    return new Figures(r.jobs(), withDeadline, missed, completed, r.money().billed(),
        r.billedNodeHours() * onDemandPerNodeHour, r.billedNodeHours() * 8);
  }

  private static double round3(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
