package io.squall.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.model.Partition;
import io.squall.core.priority.PriorityWeights;
import io.squall.core.provision.PurchaseRules;
import io.squall.core.schedule.SchedulerConfig;
import io.squall.core.time.ManualClock;
import io.squall.simulate.ElasticSimulation;
import io.squall.simulate.SimulatedCloud;
import io.squall.simulate.SimulatedProvider;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * {@code squall bench small-jobs}: do small jobs wait behind gangs? A stretch of a real GPU
 * cluster's history, mostly single-GPU jobs with some 2- and 4-node gangs, replayed on 64 static
 * 8-GPU nodes by the what-if simulator ({@link ElasticSimulation}: the production scheduler and its
 * plan's application), printing the mean wait of single-GPU jobs, of gangs and of all jobs, and the
 * makespan.
 *
 * <p>The workload is {@link #JOBS} jobs in a row (by submission, from the {@link #FIRST}-th) of the
 * bundled Philly trace (Jeon et al., ATC'19; {@code data/README.md}), which lists the jobs that used
 * 4 to 128 GPUs. A job that ran on one Philly node (4 or 8 GPUs) becomes a single-GPU job; one that
 * spread over several becomes a gang of as many whole 8-GPU nodes, at most {@link #MAX_GANG}. The
 * runtimes are Philly's, a minute made a second (as the trace was replayed on a real cluster in
 * minutes), and the time limits are each runtime plus 5 minutes, the simulator's default. The gaps
 * between submissions are shrunk {@link #ARRIVAL_SQUEEZE} times more than that, so that the 64
 * nodes are busy and a queue forms, as on the cluster the trace came from.
 *
 * <p>The loop is the service's: a 250 ms tick, a scheduler cycle soon after a submission or a job's end
 * ({@code CycleWakeup}), and one when something else changed, at most
 * every {@code --scheduler-interval} seconds (1, as {@code squall.scheduler-interval}).
 *
 * <p>{@code --jobs}, {@code --first}, {@code --time-squeeze} and {@code --arrival-squeeze} scale the
 * workload ({@link Scaling}; the defaults are the figures above). For replaying the same trace on a
 * real Slurm or the Squall service ({@code bench/small-jobs/}): {@code --write-trace FILE} writes the
 * jobs replayed as CSV, {@code --write-cluster FILE} the simulated nodes as the controller's partition
 * configuration (so that the service runs on the cluster simulated here), and {@code --write-jobs FILE}
 * each job's simulated submission, start and end, in the columns of the replay's {@code jobs.csv}.
 * {@code --priority fifo} orders the queue by submission alone (all priority weights 0, so job id
 * breaks the tie), as Slurm's default {@code PriorityType=priority/basic} does; {@code
 * --priority small-relative-to-time} is Squall's default weights with Slurm's {@code
 * PriorityFlags=SMALL_RELATIVE_TO_TIME} (the job size factor over the time limit); the default is
 * {@code multifactor}, Squall's default weights. {@code --weight-job-size N} sets Slurm's {@code
 * PriorityWeightJobSize} ({@code squall.priority.weight-job-size}, 1000 by default) and {@code
 * --favor-small yes} Slurm's {@code PriorityFavorSmall=YES} ({@code squall.priority.favor-small}).
 */
final class SmallJobsBench {
  static final int JOBS = 800;
  static final int FIRST = 2200;
  static final int MAX_GANG = 4;
  static final int NODES = 64;
  /** Nodes per placement group, in name order: 4 groups of 16. */
  static final int GROUP_SIZE = 16;
  static final long ARRIVAL_SQUEEZE = 8;
  /** A minute of the trace is a second here. */
  static final long TIME_SQUEEZE = 60;
  /** The time limit's margin over the runtime, in the trace's time: 5 hours (5 minutes at a minute a second). */
  static final Duration LIMIT_MARGIN = Duration.ofHours(5);
  private static final Instant START = Instant.parse("2026-11-21T12:00:00Z");
  private static final DateTimeFormatter PHILLY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private SmallJobsBench() {}

  /**
   * Which jobs of the trace and how squeezed: {@code jobs} in a row from the {@code first} (0-based,
   * by submission); durations divided by {@code timeSqueeze} (60: a minute is a second), the gaps
   * between submissions by {@code arrivalSqueeze} times more; time limits the runtime (in whole
   * seconds) plus {@link #LIMIT_MARGIN} squeezed the same way, rounded up to whole minutes, as Slurm's
   * {@code --time} takes them (at the defaults, the runtime plus 5 minutes: the simulator's default).
   */
  record Scaling(int jobs, int first, long timeSqueeze, long arrivalSqueeze) {
    static final Scaling DEFAULT = new Scaling(JOBS, FIRST, TIME_SQUEEZE, ARRIVAL_SQUEEZE);

    Scaling {
      if (jobs < 1 || first < 0 || timeSqueeze < 1 || arrivalSqueeze < 1) {
        throw new IllegalArgumentException("scaling needs jobs, squeezes >= 1 and first >= 0");
      }
    }

    static Scaling of(Map<String, String> opts) {
      return new Scaling(Integer.parseInt(opts.getOrDefault("jobs", Integer.toString(JOBS))),
          Integer.parseInt(opts.getOrDefault("first", Integer.toString(FIRST))),
          Long.parseLong(opts.getOrDefault("time-squeeze", Long.toString(TIME_SQUEEZE))),
          Long.parseLong(opts.getOrDefault("arrival-squeeze", Long.toString(ARRIVAL_SQUEEZE))));
    }

    /** The time limit's margin over the runtime, in whole seconds (at least 1). */
    long marginSeconds() {
      return Math.max(1, (LIMIT_MARGIN.toSeconds() + timeSqueeze - 1) / timeSqueeze);
    }

    String describe() {
      return String.format(Locale.ROOT, "trace: %d jobs from the %d-th by submission, durations squeezed %d times "
          + "(a minute is %s s), gaps %d times more, time limits the runtime and %d s in whole minutes", jobs,
          first + 1, timeSqueeze, BigDecimal.valueOf(60).divide(BigDecimal.valueOf(timeSqueeze), 3,
              RoundingMode.HALF_UP).stripTrailingZeros().toPlainString(), arrivalSqueeze, marginSeconds());
    }
  }

  static int run(Map<String, String> opts, Path cwd, PrintStream out, PrintStream err) {
    Duration interval = Duration.ofSeconds(Integer.parseInt(opts.getOrDefault("scheduler-interval", "1")));
    Scaling scaling = Scaling.of(opts);
    String priority = opts.getOrDefault("priority", "multifactor");
    boolean fifo = priority.equals("fifo");
    int traceJobs = trace().size();
    if (scaling.first() + scaling.jobs() > traceJobs) {
      err.printf(Locale.ROOT, "squall bench small-jobs: the trace has %d jobs: --first %d --jobs %d goes past its end%n",
          traceJobs, scaling.first(), scaling.jobs());
      return 2;
    }
    List<ElasticSimulation.JobSpec> work = workload(scaling);
    if (!write(opts, "write-trace", "the trace", () -> csv(work), cwd, err)
        || !write(opts, "write-cluster", "the cluster", SmallJobsBench::partitionConfig, cwd, err)) {
      return 1;
    }
    if (!scaling.equals(Scaling.DEFAULT)) {
      out.println(scaling.describe());
    }
    if (fifo) {
      out.println("priority: fifo (every priority weight 0: the queue in submission order, as priority/basic)");
    } else if (priority.equals("small-relative-to-time")) {
      out.println("priority: multifactor with PriorityFlags=SMALL_RELATIVE_TO_TIME (job size over time limit)");
    }
    ManualClock clock = new ManualClock(START);
    List<Node> nodes = nodes();
    Partition gpu = Partition.of("gpu", nodes.stream().map(Node::name).toList()).asDefault();
    SchedulerConfig config = SchedulerConfig.defaults();
    if (fifo) {
      config = config.withWeights(new PriorityWeights(0, 0, 0, 0, 0, config.weights().maxAge()));
    }
    config = config.withSmallRelativeToTime(priority.equals("small-relative-to-time"));
    if (opts.containsKey("weight-job-size")) {
      PriorityWeights w = config.weights();
      config = config.withWeights(new PriorityWeights(w.age(), w.fairShare(),
          Long.parseLong(opts.get("weight-job-size")), w.partition(), w.qos(), w.maxAge()));
      out.println("PriorityWeightJobSize=" + config.weights().jobSize());
    }
    if ("yes".equals(opts.get("favor-small"))) {
      config = config.withFavorSmall(true);
      out.println("PriorityFavorSmall=YES");
    }
    ElasticSimulation.Setup setup = new ElasticSimulation.Setup("bench",
        List.of(new ElasticSimulation.PartitionSetup(gpu, nodes, null)), config,
        Duration.ofMillis(250), interval, Duration.ofDays(90), PurchaseRules.NONE, List.of());
    // Static nodes are never bought: the provider is there because the loop needs one, and stays idle.
    SimulatedProvider provider = SimulatedCloud.provider(clock, ElasticBench.offerings(), Map.of(),
        new SplittableRandom(1));
    long t0 = System.nanoTime();
    ElasticSimulation.Result r = new ElasticSimulation(setup, clock, provider).run(work);
    long wallMs = (System.nanoTime() - t0) / 1_000_000;

    Waits single = new Waits();
    Waits gangs = new Waits();
    Waits twoNodes = new Waits();
    Waits fourNodes = new Waits();
    Waits all = new Waits();
    for (ElasticSimulation.JobOutcome o : r.outcomes()) {
      if (o.firstStart() == null) {
        continue;
      }
      double wait = o.firstStart().minus(o.submitted()).toMillis() / 1000.0;
      all.add(wait);
      if (o.gpus() == 1) {
        single.add(wait);
      } else {
        gangs.add(wait);
      }
      if (o.gpus() == 16) {
        twoNodes.add(wait);
      } else if (o.gpus() == 32) {
        fourNodes.add(wait);
      }
    }
    if (!write(opts, "write-jobs", "the jobs", () -> jobsCsv(work, r.outcomes()), cwd, err)) {
      return 1;
    }
    WaitingTime waiting = WaitingTime.of(r.outcomes());
    out.printf(Locale.ROOT, "single-GPU jobs waited %.0f job-seconds with every GPU busy and %.0f with a GPU idle "
        + "(%.0f of them while a gang waited)%n", waiting.allBusy, waiting.someIdle, waiting.someIdleGangWaiting);
    out.printf(Locale.ROOT, "replayed %d jobs (%d single-GPU, %d gangs: %d of 2 nodes, %d of 4) on %d 8-GPU nodes, "
        + "woken cycles and every %d s: %d cycles, %d ms wall%n", r.jobs(), single.count, gangs.count, twoNodes.count,
        fourNodes.count, NODES, interval.toSeconds(), r.schedulerCycles(), wallMs);
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("jobs", r.jobs());
    line.put("completed", r.jobsCompleted());
    line.put("wait_1_gpu_mean_s", single.mean());
    line.put("wait_gangs_mean_s", gangs.mean());
    line.put("wait_2_node_mean_s", twoNodes.mean());
    line.put("wait_4_node_mean_s", fourNodes.mean());
    line.put("wait_mean_s", all.mean());
    line.put("makespan_s", r.makespan().toSeconds());
    out.println(Json.write(line));
    return 0;
  }

  /**
   * Where single-GPU jobs' waiting went: while every GPU of the cluster was busy (no scheduler could
   * have started them), or while some GPU was idle (held for a reservation, or free for less than
   * their time limit), and of that, while a gang was waiting too. Worked out from the outcomes: the
   * GPUs held and the jobs waiting change only at starts, ends and submissions.
   */
  private record WaitingTime(double allBusy, double someIdle, double someIdleGangWaiting) {
    static WaitingTime of(List<ElasticSimulation.JobOutcome> outcomes) {
      // At each instant: change in GPUs held, in single-GPU jobs waiting, in gangs waiting.
      TreeMap<Long, long[]> changes = new TreeMap<>();
      for (ElasticSimulation.JobOutcome o : outcomes) {
        if (o.firstStart() == null || o.ended() == null) {
          continue;
        }
        int kind = o.gpus() == 1 ? 1 : 2;
        changes.computeIfAbsent(o.submitted().toMillis(), k -> new long[3])[kind]++;
        long[] start = changes.computeIfAbsent(o.firstStart().toMillis(), k -> new long[3]);
        start[0] += o.gpus();
        start[kind]--;
        changes.computeIfAbsent(o.ended().toMillis(), k -> new long[3])[0] -= o.gpus();
      }
      long held = 0;
      long single = 0;
      long gangs = 0;
      long last = 0;
      double busy = 0;
      double idle = 0;
      double idleGang = 0;
      for (Map.Entry<Long, long[]> c : changes.entrySet()) {
        double jobSeconds = single * (c.getKey() - last) / 1000.0;
        if (held >= (long) NODES * 8) {
          busy += jobSeconds;
        } else {
          idle += jobSeconds;
          idleGang += gangs > 0 ? jobSeconds : 0;
        }
        last = c.getKey();
        held += c.getValue()[0];
        single += c.getValue()[1];
        gangs += c.getValue()[2];
      }
      return new WaitingTime(busy, idle, idleGang);
    }
  }

  /** Waits of one kind of job, to average. */
  private static final class Waits {
    int count;
    double sum;

    void add(double seconds) {
      count++;
      sum += seconds;
    }

    double mean() {
      return count == 0 ? 0 : Math.round(sum / count * 10) / 10.0;
    }
  }

  /** The trace's jobs from the {@link #FIRST}-th by submission, reshaped and squeezed as the class says. */
  static List<ElasticSimulation.JobSpec> workload() {
    return workload(Scaling.DEFAULT);
  }

  /** The trace's jobs, reshaped as the class says and scaled as {@code scaling} says. */
  static List<ElasticSimulation.JobSpec> workload(Scaling scaling) {
    List<JsonNode> stretch = trace().subList(scaling.first(), scaling.first() + scaling.jobs());
    Instant first = submitted(stretch.get(0));
    List<ElasticSimulation.JobSpec> out = new ArrayList<>(scaling.jobs());
    for (JsonNode j : stretch) {
      int gpus = j.get("num_gpus").asInt();
      int nodes = Math.min(MAX_GANG, (gpus + 7) / 8);
      long gapMs = Duration.between(first, submitted(j)).toMillis() / (scaling.timeSqueeze() * scaling.arrivalSqueeze());
      long runtimeMs = Math.round(j.get("runtime").asDouble() * 60_000 / scaling.timeSqueeze());
      Duration runtime = Duration.ofMillis(runtimeMs);
      long limitMinutes = (runtime.toSeconds() + scaling.marginSeconds() + 59) / 60;
      out.add(new ElasticSimulation.JobSpec(Duration.ofMillis(gapMs), nodes, nodes == 1 ? 1 : 8, runtime)
          .withTimeLimit(Duration.ofMinutes(limitMinutes)));
    }
    return out;
  }

  /** The bundled trace sorted by submission (stable: file order on ties). */
  private static List<JsonNode> trace() {
    List<JsonNode> trace = new ArrayList<>();
    ElasticBench.json("philly-multigpu-jobs.json").forEach(trace::add);
    trace.sort(Comparator.comparing((JsonNode j) -> j.get("submitted_time").asText()));
    return trace;
  }

  /**
   * The workload as CSV, one job a line in submission order: its submission (seconds after the
   * first's), GPUs per node, nodes, runtime (seconds) and time limit (seconds, whole minutes), what
   * {@code bench/small-jobs/replay.py} submits as {@code sbatch -N nodes --gres=gpu:G --time=M --wrap "sleep R"}.
   */
  static String csv(List<ElasticSimulation.JobSpec> work) {
    StringBuilder b = new StringBuilder("submit_s,gpus_per_node,nodes,runtime_s,time_limit_s\n");
    for (ElasticSimulation.JobSpec j : work) {
      b.append(String.format(Locale.ROOT, "%s,%d,%d,%s,%d\n", seconds(j.submitAt()), j.gpusPerNode(), j.nodes(),
          seconds(j.runtime()), j.timeLimit().toSeconds()));
    }
    return b.toString();
  }

  /**
   * The jobs as simulated, one line a job in the trace's order, in the columns {@code
   * bench/small-jobs/replay.py} writes the service's or Slurm's in ({@code jobs.csv}), so that the
   * two can be compared job by job: seconds from the first submission, wait = started - submitted.
   */
  static String jobsCsv(List<ElasticSimulation.JobSpec> work, List<ElasticSimulation.JobOutcome> outcomes) {
    List<ElasticSimulation.JobOutcome> byId = new ArrayList<>(outcomes);
    byId.sort(Comparator.comparingLong(ElasticSimulation.JobOutcome::id)); // ids in submission order: the trace's
    if (byId.size() != work.size()) {
      throw new IllegalStateException(byId.size() + " outcomes for " + work.size() + " jobs");
    }
    StringBuilder b = new StringBuilder("index,job_id,gpus,nodes,state,submitted,started,ended,wait\n");
    for (int i = 0; i < byId.size(); i++) {
      ElasticSimulation.JobOutcome o = byId.get(i);
      b.append(String.format(Locale.ROOT, "%d,%d,%d,%d,%s,%s,%s,%s,%s\n", i, o.id(), o.gpus(), work.get(i).nodes(),
          o.state(), seconds(o.submitted()), secondsOrNone(o.firstStart()), secondsOrNone(o.ended()),
          o.firstStart() == null ? "" : seconds(o.firstStart().minus(o.submitted()))));
    }
    return b.toString();
  }

  /**
   * The simulated nodes as the controller's configuration of one partition: the YAML entry {@code
   * gpu:} of {@code squall.partitions} (indent it to put it there). The controller splits a
   * partition's hostlist in order into {@code placement-groups} equal groups, as {@link #nodes()}
   * groups them.
   */
  static String partitionConfig() {
    List<Node> nodes = nodes();
    Node first = nodes.get(0);
    return String.format(Locale.ROOT, """
        gpu:
          default: true
          nodes: %s
          gpus: %d
          gpu-type: %s
          cpus: %d
          memory-mb: %d
          features: [%s]
          placement-groups: %d
        """, Hostlist.compress(nodes.stream().map(Node::name).toList()), first.gpus(), first.gpuType(),
        first.cpus(), first.memoryMb(), String.join(", ", first.features()), NODES / GROUP_SIZE);
  }

  /** Writes {@code what} to the file named by option {@code option}, if given; false (said on err) when it cannot. */
  private static boolean write(Map<String, String> opts, String option, String what,
      Supplier<String> text, Path cwd, PrintStream err) {
    if (!opts.containsKey(option)) {
      return true;
    }
    try {
      Files.writeString(cwd.resolve(opts.get(option)), text.get(), StandardCharsets.UTF_8);
      return true;
    } catch (IOException e) {
      err.println("squall bench small-jobs: cannot write " + what + " to " + opts.get(option) + ": " + e);
      return false;
    }
  }

  /** Empty for a job that never started or ended. */
  private static String secondsOrNone(Duration d) {
    return d == null ? "" : seconds(d);
  }

  private static String seconds(Duration d) {
    return BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString();
  }

  private static Instant submitted(JsonNode j) {
    return LocalDateTime.parse(j.get("submitted_time").asText(), PHILLY_TIME).toInstant(ZoneOffset.UTC);
  }

  static List<Node> nodes() {
    List<Node> out = new ArrayList<>(NODES);
    for (int i = 0; i < NODES; i++) {
      out.add(new Node(String.format(Locale.ROOT, "gpu%02d", i + 1), 8, "h100", 192, 2_097_152, Set.of("h100"),
          String.format(Locale.ROOT, "pg%d", i / GROUP_SIZE), NodeState.IDLE));
    }
    return out;
  }
}
