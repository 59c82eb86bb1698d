package io.squall.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.provider.Offering;
import io.squall.core.provision.CapacityPolicy;
import io.squall.core.time.ManualClock;
import io.squall.simulate.Catalogue;
import io.squall.simulate.ElasticSimulation;
import io.squall.simulate.SimulatedCloud;
import io.squall.simulate.SimulatedProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

/**
 * {@code squall bench elastic}: a burst of jobs on an empty elastic partition of p5.48xlarge
 * nodes in us-east-1, run in virtual time by {@link ElasticSimulation} (the production scheduler
 * and power planner against a {@link SimulatedProvider}).
 *
 * <p>The workload: {@code --pending} jobs submitted at time 0, sampled with the seed (with
 * replacement) from the Philly trace (Jeon et al., ATC'19; {@code data/README.md}): a job of
 * {@code g} GPUs asks for {@code ceil(g/8)} nodes of {@code min(8, g)} GPUs and runs for its trace
 * runtime, capped at {@link #MAX_RUNTIME} so that the queue drains in virtual days, not months
 * (Philly's median multi-GPU job ran 14 hours).
 *
 * <p>The cloud: spot and on-demand p5.48xlarge in each us-east-1 zone at the SkyPilot catalogue's
 * prices; each zone's spot capacity is drawn with the seed between 32 and 128 instances, and any
 * spot launch call fails for lack of capacity with probability
 * {@link SimulatedCloud#SPOT_ICE_PROBABILITY}; on-demand capacity is unlimited. Instances register
 * {@link SimulatedCloud#BOOT} after their launch call ({@link SimulatedCloud}).
 *
 * <p>The partition: {@code --nodes} (512) nodes in placement groups of 16, all powered down at
 * the start; policy spot then on-demand after 5 min ({@code --on-demand-after} seconds),
 * SuspendTime 5 min, batch window 1 s, ResumeTimeout 10 min (the defaults of
 * {@link CapacityPolicy#defaults}).
 *
 * <p>The loop: a 250 ms tick; a scheduler cycle when anything changed, at most every
 * {@link #SCHEDULER_INTERVAL} of virtual time ({@code --scheduler-interval} seconds).
 */
final class ElasticBench {
  static final Instant START = Instant.parse("2026-11-21T12:00:00Z");
  static final String INSTANCE_TYPE = "p5.48xlarge";
  static final String REGION = "us-east-1";
  static final int NODES_PER_GROUP = 16;
  /**
   * The least {@code --nodes} of a bench that samples the trace: every job of it fits (the largest
   * take 128 GPUs, 16 nodes); with fewer, those jobs never start and the run stops at its time limit.
   */
  static final int MIN_NODES = 16;
  static final Duration MAX_RUNTIME = Duration.ofHours(4);
  /**
   * The least virtual time between scheduler cycles, Slurm's {@code sched_interval} default. A
   * full cycle over a 5,000-job queue costs about 10 ms, and about every 20 s of virtual time a
   * job ends, so cycling on every change would make the run several times slower; the cost is
   * idle time on nodes a job freed until the next cycle.
   */
  static final Duration SCHEDULER_INTERVAL = Duration.ofSeconds(60);
  /** Parses the bench data's JSON files; built once, as it is costly to build and safe to share. */
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ElasticBench() {}

  /** One job of the trace: its GPUs and runtime. */
  record TraceJob(int gpus, Duration runtime) {}

  static int run(Map<String, String> opts, PrintStream out) {
    int pending = Integer.parseInt(opts.getOrDefault("pending", "5000"));
    int nodeCount = Integer.parseInt(opts.getOrDefault("nodes", "512"));
    long seed = Long.parseLong(opts.getOrDefault("seed", "1"));
    Duration interval = opts.containsKey("scheduler-interval")
        ? Duration.ofSeconds(Integer.parseInt(opts.get("scheduler-interval"))) : SCHEDULER_INTERVAL;
    SplittableRandom rnd = new SplittableRandom(seed);

    List<ElasticSimulation.JobSpec> work = workload(trace(), pending, rnd.split());
    List<Offering> catalogue = offerings();
    ManualClock clock = new ManualClock(START);
    // Split in this order (capacity failures, then capacities): the figures depend on it.
    SplittableRandom failures = rnd.split();
    Map<String, Integer> capacities = SimulatedCloud.spotCapacities(catalogue, rnd.split());
    SimulatedProvider provider = SimulatedCloud.provider(clock, catalogue, capacities, failures);
    CapacityPolicy policy = CapacityPolicy.defaults(INSTANCE_TYPE);
    if (opts.containsKey("on-demand-after")) {
      policy = policy.withOnDemandAfter(Duration.ofSeconds(Integer.parseInt(opts.get("on-demand-after"))));
    }
    ElasticSimulation.Setup setup = ElasticSimulation.Setup.of("bench", "gpu", nodes(nodeCount), policy)
        .withSchedulerInterval(interval);

    long t0 = System.nanoTime();
    ElasticSimulation.Result r = new ElasticSimulation(setup, clock, provider).run(work);
    long wallMs = (System.nanoTime() - t0) / 1_000_000;

    out.printf(Locale.ROOT, "simulated %d jobs on %d %s nodes (%s): makespan %s, %d scheduler cycles, %d ms wall%n",
        r.jobs(), nodeCount, INSTANCE_TYPE, REGION, r.makespan(), r.schedulerCycles(), wallMs);
    long within2s = r.timesToLaunchCallMs().stream().filter(ms -> ms <= 2000).count();
    out.printf(Locale.ROOT, "jobs completed %d, needed a launch %d (%d of them called within 2 s), max time to "
        + "launch call %d ms, failed launch calls %d, spot nodes %d of %d, requeues %d%n", r.jobsCompleted(),
        r.jobsLaunchedFor(), within2s, r.maxTimeToLaunchCallMs(), r.failedLaunchCalls(), r.spotNodesLaunched(),
        r.nodesLaunched(), r.requeues());
    out.printf(Locale.ROOT, "billed %.1f node-hours, $%.0f%s%n", r.billedNodeHours(), r.billedDollars(),
        r.finished() ? "" : " (stopped at the time limit before the queue drained)");
    out.println(describe(r.money()));
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("jobs", r.jobs());
    line.put("launch_calls", r.launchCalls());
    line.put("nodes_launched", r.nodesLaunched());
    line.put("partial_gangs_billed", r.partialGangsBilled());
    line.put("orphans", r.orphans());
    line.put("median_time_to_launch_call_ms", r.medianTimeToLaunchCallMs());
    line.put("idle_node_hours", Math.round(r.idleNodeHours() * 100) / 100.0);
    money(line, r.money());
    out.println(Json.write(line));
    return 0;
  }

  /** The run's money in words: the bill, how it splits, the lower bound, the ratio and what the gap is made of. */
  static String describe(ElasticSimulation.Money m) {
    return String.format(Locale.ROOT, "money: billed $%.0f = jobs' holds $%.0f (of which on on-demand instances $%.0f) "
        + "+ overhead $%.0f (boots nobody waited for, idle before suspend); lower bound $%.0f (completed jobs' "
        + "GPU-hours at the cheapest spot price per GPU-hour); billed / lower bound %.3f%n"
        + "gap over the lower bound $%.0f = price $%.0f (useful work on on-demand and on spot dearer than the cheapest "
        + "zone) + boot $%.0f (jobs' nodes booting) + rework $%.0f (work interruptions took) + unfinished jobs $%.0f "
        + "+ overhead $%.0f", m.billed(), m.jobs(), m.onDemandJobs(), m.overhead(), m.lowerBound(), m.ratio(),
        m.billed() - m.lowerBound(), m.price(), m.boot(), m.rework(), m.unfinished(), m.overhead());
  }

  /** The run's money in the benchmark's JSON line. */
  static void money(Map<String, Object> line, ElasticSimulation.Money m) {
    line.put("dollars_billed", Math.round(m.billed()));
    line.put("lower_bound_dollars", Math.round(m.lowerBound()));
    line.put("cost_ratio", Math.round(m.ratio() * 1000) / 1000.0);
    line.put("gap_price_dollars", Math.round(m.price()));
    line.put("gap_boot_dollars", Math.round(m.boot()));
    line.put("gap_rework_dollars", Math.round(m.rework()));
    line.put("gap_unfinished_dollars", Math.round(m.unfinished()));
    line.put("gap_overhead_dollars", Math.round(m.overhead()));
  }

  /**
   * {@code count} jobs drawn from the trace as {@link #workload} draws them, submitted one after
   * another at exponential gaps of {@code meanGap} on average, each given its own traits by
   * {@code dress} (which may draw from {@code rnd}) before the gap to the next is drawn.
   */
  static List<ElasticSimulation.JobSpec> arriving(int count, Duration meanGap, SplittableRandom rnd,
      UnaryOperator<ElasticSimulation.JobSpec> dress) {
    List<ElasticSimulation.JobSpec> sampled = workload(trace(), count, rnd.split());
    List<ElasticSimulation.JobSpec> out = new ArrayList<>(count);
    long atMs = 0;
    for (ElasticSimulation.JobSpec j : sampled) {
      out.add(dress.apply(new ElasticSimulation.JobSpec(Duration.ofMillis(atMs), j.nodes(), j.gpusPerNode(),
          j.runtime())));
      atMs += (long) (-Math.log(1 - rnd.nextDouble()) * meanGap.toMillis());
    }
    return out;
  }

  /** {@code count} jobs at time 0, drawn with replacement from the trace. */
  static List<ElasticSimulation.JobSpec> workload(List<TraceJob> trace, int count, SplittableRandom rnd) {
    List<ElasticSimulation.JobSpec> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      TraceJob t = trace.get(rnd.nextInt(trace.size()));
      Duration runtime = t.runtime().compareTo(MAX_RUNTIME) > 0 ? MAX_RUNTIME : t.runtime();
      out.add(new ElasticSimulation.JobSpec(Duration.ZERO, (t.gpus() + 7) / 8, Math.min(8, t.gpus()), runtime));
    }
    return out;
  }

  static List<TraceJob> trace() {
    JsonNode root = json("philly-multigpu-jobs.json");
    List<TraceJob> out = new ArrayList<>(root.size());
    for (JsonNode j : root) {
      long ms = Math.round(j.get("runtime").asDouble() * 60_000);
      out.add(new TraceJob(j.get("num_gpus").asInt(), Duration.ofMillis(ms)));
    }
    return out;
  }

  /** Spot (per-zone price) and on-demand offerings of the instance type in the region's zones. */
  static List<Offering> offerings() {
    return Catalogue.parse(text(Catalogue.BUNDLED.substring("/data/".length())), Catalogue.BUNDLED,
        Set.of(INSTANCE_TYPE), REGION);
  }

  static List<Node> nodes(int count) {
    List<Node> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(new Node(String.format(Locale.ROOT, "p5-%04d", i + 1), 8, "h100", 192, 2_097_152, Set.of("h100"),
          String.format(Locale.ROOT, "pg%02d", i / NODES_PER_GROUP), NodeState.CLOUD));
    }
    return out;
  }

  /** The bench data file {@code name} (a path under {@code /data/} on the class path), parsed. */
  static JsonNode json(String name) {
    try (InputStream in = resource(name)) {
      return MAPPER.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The bench data file {@code name} (a path under {@code /data/} on the class path) as text. */
  static String text(String name) {
    try (InputStream in = resource(name)) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The bench data file {@code name}, a path under {@code /data/} on the class path. */
  private static InputStream resource(String name) throws IOException {
    InputStream in = ElasticBench.class.getResourceAsStream("/data/" + name);
    if (in == null) {
      throw new IOException("bench data /data/" + name + " is missing from the classpath");
    }
    return in;
  }
}
