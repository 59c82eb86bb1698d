package io.squall.cli;

import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import io.squall.core.provision.CapacityPolicy;
import io.squall.core.time.ManualClock;
import io.squall.simulate.Checkpointing;
import io.squall.simulate.ElasticSimulation;
import io.squall.simulate.InterruptionRules;
import io.squall.simulate.SimulatedCloud;
import io.squall.simulate.SimulatedProvider;
import io.squall.simulate.TraceReclaims;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code squall bench interruptions}: what spot interruptions cost a GPU workload when jobs
 * honour the checkpoint signal, against the same workload when jobs only checkpoint every
 * {@link #CHECKPOINT_INTERVAL}. Two runs of {@link ElasticSimulation} (the production scheduler
 * and power planner against a {@link SimulatedProvider}, in virtual time) on the same seed,
 * workload, cloud and reclaim model; only the jobs' {@link Checkpointing} differs.
 *
 * <p>Workload, cloud and partition as {@code bench elastic} ({@link ElasticBench}): {@code --jobs}
 * (500) jobs sampled with the seed from the Philly trace, all submitted at time 0, runtimes
 * capped at {@link ElasticBench#MAX_RUNTIME}; p5.48xlarge spot and on-demand in the six us-east-1
 * zones at the SkyPilot catalogue's prices, spot capacity 32 to 128 per zone (seeded), spot
 * launch calls failing for capacity with probability {@link SimulatedCloud#SPOT_ICE_PROBABILITY},
 * 3 min boot; {@code --nodes} (128) nodes in placement groups of 16 with
 * {@link CapacityPolicy#defaults} (spot first, on-demand after 5 min, an offering that failed or
 * was interrupted left alone 5 min). The scheduler may cycle every second (the controller's
 * default).
 *
 * <p>Reclaims ({@link TraceReclaims}): each spot zone follows one of the eight 2022 AWS spot
 * availability traces (Wu et al., NSDI'24; {@code data/README.md}), seeded choice without repeats
 * and seeded start tick, repeating after its end. A spot instance is taken back at hazard
 * {@code rate × w(t)} per hour, {@code w(t) = b + (1 - b) × s(t) / mean(s)} with {@code s} its
 * zone's shortage (the trace's most minus the instances available) and {@code b} the
 * {@link #BASELINE}: {@code rate} ({@code --interruptions-per-hour}, per spot node-hour) on
 * average over the trace, {@code b × rate} while the trace shows full availability. The seed decides each node's draws. Notice {@link #NOTICE} before the
 * machine goes (AWS). The hazard's time-average is not what spot node-hours see: the policy
 * prefers the cheapest zones and leaves a zone alone after an interruption, so spot node-hours
 * gather where the hazard is low. So the hazard is scaled by a factor {@code c}, calibrated on
 * run 1 ({@link #compare}) until run 1 sees {@code rate} interruptions per spot node-hour within
 * {@link #TOLERANCE}; run 2 uses the same {@code c}.
 *
 * <p>The controller ({@link InterruptionRules#defaults()}, as the api's partition defaults):
 * drain, checkpoint signal at once, stop at the checkpoint or 10 s before the machine goes,
 * requeue whole (30 s backoff doubled per restart from the second, held past 5 restarts).
 * Checkpoints: {@link #CHECKPOINT_WRITE} to write one (an 8×H100 node's share of model and
 * optimizer state, about 16 bytes per parameter: some 100 GB for a 7B-parameter model, at about
 * 4 GB/s to local NVMe or a parallel filesystem); run 1's jobs write one on the signal (so an
 * interruption loses the write time) and every 30 min; run 2's only every 30 min (it loses the time
 * since the newest written one).
 */
final class InterruptionBench {
  static final Duration NOTICE = Duration.ofMinutes(2);
  static final Duration CHECKPOINT_WRITE = Duration.ofSeconds(30);
  static final Duration CHECKPOINT_INTERVAL = Duration.ofMinutes(30);
  /** The spot availability traces under {@code data/spot/}. */

  private InterruptionBench() {}

  /**
   * The share of the hazard that does not follow the traces: the traces record whether one more
   * instance could be launched, not reclaims, and a zone whose trace shows full availability for
   * the whole run would otherwise never lose a node, however the hazard is scaled.
   */
  static final double BASELINE = 0.25;
  /** How close run 1's interruptions per spot node-hour must come to the asked rate. */
  static final double TOLERANCE = 0.03;
  /** Runs of run 1 at most to calibrate the hazard's scale; the closest is kept. */
  static final int MAX_PILOTS = 8;
  /** The partition's policy in both runs. */
  static final CapacityPolicy POLICY = CapacityPolicy.defaults(ElasticBench.INSTANCE_TYPE);
  /** The controller's rules in both runs; only the jobs' checkpointing is set per run. */
  static final InterruptionRules RULES = InterruptionRules.defaults();

  /**
   * Both runs and what they ran under.
   *
   * @param reclaims run 1's reclaims (which trace each zone follows, for the description)
   * @param scale the factor on the asked rate that the hazard was calibrated to
   * @param pilots runs of run 1 it took (the closest of them is run 1)
   * @param wallMs the whole comparison's wall time, pilots included
   */
  record Comparison(TraceReclaims reclaims, double scale, int pilots, ElasticSimulation.Result signal,
      ElasticSimulation.Result noSignal, long wallMs) {}

  static int run(Map<String, String> opts, PrintStream out) {
    int jobs = Integer.parseInt(opts.getOrDefault("jobs", "500"));
    int nodes = Integer.parseInt(opts.getOrDefault("nodes", "128"));
    double rate = Double.parseDouble(opts.getOrDefault("interruptions-per-hour", "0.5"));
    long seed = Long.parseLong(opts.getOrDefault("seed", "1"));
    Comparison c = compare(jobs, nodes, rate, seed);
    ElasticSimulation.Result a = c.signal();
    ElasticSimulation.Result b = c.noSignal();

    out.printf(Locale.ROOT, "setup: %d Philly jobs (seed %d, all at time 0, runtime capped at %d h) on %d %s nodes "
        + "(%s, %d zones, spot first, on-demand after %s); spot reclaims: a spot instance is taken back at hazard "
        + "c x %s/h x (%s + %s x (M - a(t)) / mean(M - a)) with a the availability trace its zone follows (M its "
        + "most; 600 s ticks; seeded trace and start tick; repeating), c calibrated so that run 1 sees %s interruptions per "
        + "spot node-hour; %d s notice; controller: drain, checkpoint signal, stop at the checkpoint or %s before "
        + "the machine goes, requeue whole (%s backoff doubled from restart 2, held past %d restarts), "
        + "interrupted offering left alone %s; checkpoint write %d s%n", jobs, seed,
        ElasticBench.MAX_RUNTIME.toHours(), nodes, ElasticBench.INSTANCE_TYPE, ElasticBench.REGION,
        c.reclaims().assignments().size(), span(POLICY.onDemandAfter()), decimal(rate), decimal(BASELINE),
        decimal(1 - BASELINE), decimal(rate), NOTICE.toSeconds(), span(RULES.margin()), span(RULES.restartBackoff()),
        RULES.maxRestarts(), span(POLICY.unavailableFor()), CHECKPOINT_WRITE.toSeconds());
    out.println("zones follow (trace@start tick): " + c.reclaims().describe());
    out.printf(Locale.ROOT, "c = %.3f, found in %d run(s) of run 1 (within %.0f%%, or the closest of %d; the policy "
        + "moves spot away from zones just interrupted, so spot node-hours gather where the hazard is low)%n",
        c.scale(), c.pilots(), TOLERANCE * 100, MAX_PILOTS);
    out.println(describe("run 1, jobs checkpoint on the signal (and every 30 min)", a));
    out.println(describe("run 2, jobs ignore it and checkpoint every 30 min", b));
    out.println("run 1 " + ElasticBench.describe(a.money()));
    out.printf(Locale.ROOT, "wall time %d ms for %d simulated runs%n", c.wallMs(), c.pilots() + 1);
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("interruptions", a.interruptions());
    line.put("requeued", a.interruptionRequeues());
    line.put("lost_gpu_hours", round2(a.lostGpuHours()));
    line.put("lost_gpu_hours_no_signal", round2(b.lostGpuHours()));
    line.put("median_requeue_to_restart_s", round2(a.medianRequeueToRestartMs() / 1000.0));
    line.put("median_first_restart_s", round2(a.medianFirstRestartMs() / 1000.0));
    line.put("stranded_node_hours", round2(a.strandedNodeHours()));
    line.put("boot_wait_lost_node_hours", round2(a.bootWaitLostNodeHours()));
    line.put("jobs_completed", a.jobsCompleted());
    ElasticBench.money(line, a.money());
    out.println(Json.write(line));
    return 0;
  }

  /**
   * The two runs. The seed splits, in this order, into the workload's draws, the provider's spot
   * capacity failures, the zones' capacities and the reclaims; both runs use the same of each.
   */
  static Comparison compare(int jobs, int nodes, double rate, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Offering> catalogue = ElasticBench.offerings();
    List<ElasticSimulation.JobSpec> work = ElasticBench.workload(ElasticBench.trace(), jobs, rnd.split());
    long providerSeed = rnd.nextLong();
    Map<String, Integer> capacities = SimulatedCloud.spotCapacities(catalogue, rnd.split());
    long reclaimSeed = rnd.nextLong();
    List<String> spotZones = catalogue.stream().filter(o -> o.capacityType() == CapacityType.SPOT)
        .map(Offering::zone).toList();
    List<TraceReclaims.Trace> traces = traces();
    InterruptionRules signal = RULES.withJobs(Checkpointing.onSignal(CHECKPOINT_WRITE, CHECKPOINT_INTERVAL));
    InterruptionRules noSignal = RULES.withJobs(Checkpointing.everyInterval(CHECKPOINT_INTERVAL, CHECKPOINT_WRITE));

    long t0 = System.nanoTime();
    // Calibration: the scheduler leaves zones that were just interrupted and spot goes to the
    // cheapest zones first, so spot node-hours gather where the hazard is low and a hazard whose
    // time-average is the rate gives fewer interruptions per spot node-hour than asked. Run 1 is
    // run again with the hazard scaled (secant steps on log scale, log rate) until it gives the
    // rate within TOLERANCE, at most MAX_PILOTS times; the closest run is run 1, and run 2 uses
    // the same scale.
    List<double[]> tried = new ArrayList<>(); // {scale, realized}
    ElasticSimulation.Result best = null;
    TraceReclaims bestReclaims = null;
    double bestScale = 1;
    double scale = 1;
    int pilots = 0;
    while (pilots < MAX_PILOTS) {
      pilots++;
      TraceReclaims reclaims = TraceReclaims.assign(ElasticBench.START, spotZones, traces, rate * scale, BASELINE, NOTICE,
          reclaimSeed);
      ElasticSimulation.Result r = simulate(work, nodes, catalogue, capacities, providerSeed, reclaims, signal);
      double realized = perSpotNodeHour(r);
      if (best == null || Math.abs(realized - rate) < Math.abs(perSpotNodeHour(best) - rate)) {
        best = r;
        bestReclaims = reclaims;
        bestScale = scale;
      }
      if (rate == 0 || Math.abs(realized - rate) <= TOLERANCE * rate) {
        break;
      }
      tried.add(new double[] {scale, realized});
      scale = nextScale(tried, rate);
    }
    // Run 2 gets reclaims of its own: they hold each node's random stream, which run 1 has moved on.
    TraceReclaims fresh = TraceReclaims.assign(ElasticBench.START, spotZones, traces, rate * bestScale, BASELINE, NOTICE,
        reclaimSeed);
    ElasticSimulation.Result b = simulate(work, nodes, catalogue, capacities, providerSeed, fresh, noSignal);
    return new Comparison(bestReclaims, bestScale, pilots, best, b, (System.nanoTime() - t0) / 1_000_000);
  }

  /**
   * The next scale to try: the realized rate in proportion to the scale after one try; after
   * more, a secant step through the last two tries on log scale and log rate (a proportional
   * step when those two do not slope upwards). Kept within 1/16 to 64.
   */
  static double nextScale(List<double[]> tried, double rate) {
    double[] last = tried.get(tried.size() - 1);
    double next = last[1] > 0 ? last[0] * rate / last[1] : last[0] * 4;
    if (tried.size() >= 2 && last[1] > 0) {
      double[] before = tried.get(tried.size() - 2);
      if (before[1] > 0 && before[0] != last[0]) {
        double slope = Math.log(last[1] / before[1]) / Math.log(last[0] / before[0]);
        if (slope > 0.1) {
          next = last[0] * Math.pow(rate / last[1], 1 / slope);
        }
      }
    }
    return Math.max(1.0 / 16, Math.min(64, next));
  }

  static double perSpotNodeHour(ElasticSimulation.Result r) {
    return r.spotNodeHours() == 0 ? 0 : r.interruptions() / r.spotNodeHours();
  }

  private static ElasticSimulation.Result simulate(List<ElasticSimulation.JobSpec> work, int nodes,
      List<Offering> catalogue, Map<String, Integer> capacities, long providerSeed, TraceReclaims reclaims,
      InterruptionRules rules) {
    ManualClock clock = new ManualClock(ElasticBench.START);
    SimulatedProvider provider = SimulatedCloud.provider(clock, catalogue, capacities, new SplittableRandom(providerSeed))
        .reclaims(reclaims);
    ElasticSimulation.Setup setup = ElasticSimulation.Setup.of("bench", "gpu", ElasticBench.nodes(nodes), POLICY);
    return new ElasticSimulation(setup, clock, provider, rules).run(work);
  }

  private static String describe(String what, ElasticSimulation.Result r) {
    double perNodeHour = perSpotNodeHour(r);
    return String.format(Locale.ROOT, "%s: %d of %d jobs completed, %d held after %d restarts; %d interruptions "
        + "in %.1f spot node-hours (%.3f per node-hour), %d requeues, median requeue to restart %.1f s (%.1f s after a "
        + "first interruption); lost %.2f GPU-hours; makespan %s; billed %.1f node-hours, $%.0f, of which %.2f "
        + "node-hours to nodes whose gang could not run and %.2f to up nodes whose gang's booting node was reclaimed%s",
        what, r.jobsCompleted(), r.jobs(),
        r.jobsHeld(), RULES.maxRestarts(), r.interruptions(), r.spotNodeHours(), perNodeHour, r.interruptionRequeues(),
        r.medianRequeueToRestartMs() / 1000.0, r.medianFirstRestartMs() / 1000.0, r.lostGpuHours(),
        r.makespan(), r.billedNodeHours(), r.billedDollars(), r.strandedNodeHours(), r.bootWaitLostNodeHours(),
        r.finished() ? "" : " (stopped at the time limit)");
  }

  /** The eight availability traces, each {@code {"metadata":{"gap_seconds":N},"data":[...]}}. */
  static List<TraceReclaims.Trace> traces() {
    List<TraceReclaims.Trace> out = new ArrayList<>();
    for (String name : TraceReclaims.BUNDLED) {
      out.add(TraceReclaims.Trace.parse(name, ElasticBench.text("spot/" + name + ".json")));
    }
    return out;
  }

  private static double round2(double v) {
    return Math.round(v * 100) / 100.0;
  }

  /** A wait as the setup line says it: whole minutes as {@code N min}, else {@code N s}. */
  private static String span(Duration d) {
    return d.toMinutes() > 0 && d.toSecondsPart() == 0 ? d.toMinutes() + " min" : d.toSeconds() + " s";
  }

  private static String decimal(double v) {
    return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }
}
