package io.squall.api.simulate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.squall.core.model.Partition;
import io.squall.simulate.ElasticSimulation;
import io.squall.simulate.trace.Trace;
import io.squall.simulate.trace.TraceException;
import io.squall.simulate.trace.TraceJob;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code squall simulate}: replays a job history under one configuration or several, side by
 * side, through the production scheduler and fleet engine ({@link WhatIfRun}), and prints the
 * headline figures ({@link WhatIfFigures}) as a table, and as JSON with {@code --json}.
 */
public final class WhatIf {
  static final String USAGE = "usage: squall simulate --trace FILE --trace-format sacct|swf|philly|alibaba|jsonl "
      + "[--skip-bad-rows] --config squall.yml [--compare other.yml ...] [--partition NAME] [--prices FILE] "
      + "[--interruptions-per-hour X] [--availability DIR] [--seed N] [--json out.json] [--report out.html]";

  private WhatIf() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command; answers its exit status (2 for bad usage or input, said on {@code err}). */
  static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      Options o = Options.parse(args);
      Trace trace = read(o);
      List<Map<String, Object>> configurations = new ArrayList<>();
      List<ReportRun> runs = new ArrayList<>();
      for (Path file : o.configs()) {
        ReportRun run = simulate(file, trace, o, err);
        configurations.add(run.figures());
        runs.add(run);
      }
      out.print(Table.of(o.configs(), configurations));
      if (o.json() != null) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("trace", o.trace().toString());
        doc.put("trace_format", o.format().formatName());
        doc.put("trace_jobs", trace.jobs().size());
        doc.put("skipped_rows", trace.skipped().size());
        doc.put("left_out_by_the_format", trace.leftOut());
        doc.put("seed", o.seed());
        doc.put("configurations", configurations);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(o.json().toFile(), doc);
      }
      if (o.report() != null) {
        WhatIfReport.write(o.report(), "What-if: " + o.trace().getFileName(), runs);
      }
      return 0;
    } catch (IllegalArgumentException | IllegalStateException | TraceException | IOException e) {
      err.println("squall simulate: " + e.getMessage());
      return 2;
    }
  }

  private static Trace read(Options o) throws IOException {
    if (!Files.isRegularFile(o.trace())) {
      throw new IllegalArgumentException(o.trace() + ": no such trace file");
    }
    try (Reader r = Files.newBufferedReader(o.trace(), StandardCharsets.UTF_8)) {
      Trace t = o.format().reader().read(r, o.trace().getFileName().toString(), o.skipBadRows());
      if (t.jobs().isEmpty()) {
        throw new IllegalArgumentException(o.trace() + ": no job to replay");
      }
      return t;
    }
  }

  private static ReportRun simulate(Path file, Trace trace, Options o, PrintStream err) {
    ServiceConfig.Cluster cluster = ServiceConfig.read(file);
    WhatIfRun.warnings(cluster).forEach(w -> err.println("squall simulate: warning: " + w));
    List<Partition> partitions = WhatIfRun.partitions(cluster, o.partition());
    Workload w = Workload.of(trace.jobs(), Workload.rooms(cluster, partitions));
    long t0 = System.nanoTime();
    ElasticSimulation.Result r = WhatIfRun.run(cluster, partitions, o.cloud(), w.jobs(), w.start(), o.seed(),
        new ProgressLine(file.getFileName().toString(), w.jobs().size(), t0, err));
    double wall = (System.nanoTime() - t0) / 1e9;
    err.printf(Locale.ROOT, "%s: %d jobs simulated over %.1f h in %.1f s (%.0fx real time)%n", file,
        w.jobs().size(), r.makespan().toSeconds() / 3600.0, wall, r.makespan().toSeconds() / Math.max(wall, 1e-3));
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("config", file.toString());
    f.put("partitions", String.join(",", partitions.stream().map(Partition::name).toList()));
    f.put("jobs_reshaped", w.reshaped());
    f.put("jobs_left_out", w.leftOut());
    f.put("jobs_to_default_partition", w.toDefault());
    f.putAll(WhatIfFigures.of(r, w.jobs(), staticGpus(cluster, partitions), cluster.layout().budgets()));
    List<ReportRun.Sample> samples = r.samples().stream().map(x -> new ReportRun.Sample(x.at().toSeconds() / 3600.0,
        x.queued(), x.runningGpus(), x.spotNodes(), x.onDemandNodes(), x.spentUsd())).toList();
    List<Long> waits = r.outcomes().stream().filter(x -> x.firstRun() != null)
        .map(x -> x.firstRun().minus(x.submitted()).toSeconds()).toList();
    return new ReportRun(file.getFileName().toString(), f, samples, waits);
  }

  /** The replayed static partitions' GPUs, by partition (what their utilisation is counted against). */
  private static Map<String, Integer> staticGpus(ServiceConfig.Cluster cluster, List<Partition> partitions) {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (Partition p : partitions) {
      if (!cluster.layout().policies().containsKey(p.name())) {
        out.put(p.name(), p.nodes().stream().mapToInt(n -> cluster.layout().node(n).gpus()).sum());
      }
    }
    return out;
  }

  /**
   * The trace's jobs as the replayed partitions can run them: submission offsets from the first
   * job's (the run's start), the account, QOS and time limit as recorded; each in the partition it
   * ran in when that is replayed, else in the default one (counted when it named another). A job
   * asking more GPUs per node than its partition's nodes have is reshaped onto more nodes (its
   * GPUs kept), one needing more nodes than the partition has, or that never ran (runtime 0), is
   * left out. Both are counted in the figures.
   */
  record Workload(List<ElasticSimulation.JobSpec> jobs, Instant start, int reshaped, int leftOut, int toDefault) {
    /** A partition's nodes: how many, and the GPUs of each (its smallest). */
    record Room(int nodes, int nodeGpus) {}

    /** The replayed partitions' rooms, the default one first. */
    static Map<String, Room> rooms(ServiceConfig.Cluster cluster, List<Partition> partitions) {
      Map<String, Room> out = new LinkedHashMap<>();
      List<Partition> defaultFirst = new ArrayList<>(partitions);
      defaultFirst.sort(Comparator.comparing((Partition p) -> !p.isDefault()));
      for (Partition p : defaultFirst) {
        out.put(p.name(), new Room(p.nodes().size(), p.nodes().stream().mapToInt(n -> cluster.layout().node(n).gpus())
            .min().orElse(0)));
      }
      return out;
    }

    /** @param rooms the replayed partitions, the default one first */
    static Workload of(List<TraceJob> trace, Map<String, Room> rooms) {
      Instant first = trace.get(0).submit();
      String defaultPartition = rooms.keySet().iterator().next();
      List<ElasticSimulation.JobSpec> out = new ArrayList<>();
      int reshaped = 0;
      int leftOut = 0;
      int toDefault = 0;
      for (TraceJob j : trace) {
        String partition = j.partition() != null && rooms.containsKey(j.partition()) ? j.partition()
            : defaultPartition;
        toDefault += j.partition() != null && !partition.equals(j.partition()) ? 1 : 0;
        int nodeGpus = rooms.get(partition).nodeGpus();
        int nodeCount = rooms.get(partition).nodes();
        int nodes = j.nodes();
        int perNode = j.gpusPerNode();
        if (perNode > nodeGpus) {
          int total = nodes * perNode;
          nodes = (total + nodeGpus - 1) / nodeGpus;
          perNode = (total + nodes - 1) / nodes;
          reshaped++;
        }
        if (nodes > nodeCount || j.runtime().isZero()) {
          leftOut++;
          continue;
        }
        ElasticSimulation.JobSpec spec = new ElasticSimulation.JobSpec(Duration.between(first, j.submit()), nodes,
            perNode, j.runtime()).withPartition(partition);
        spec = j.account() == null ? spec : spec.withAccount(j.account());
        spec = j.qos() == null ? spec : spec.withQos(j.qos());
        spec = j.user() == null ? spec : spec.withUser(j.user());
        // A recorded run longer than its limit (Slurm's OverTimeLimit) keeps its runtime.
        spec = j.timeLimit() == null ? spec : spec.withTimeLimit(j.timeLimit().compareTo(j.runtime()) < 0
            ? j.runtime() : j.timeLimit());
        out.add(spec);
      }
      if (out.isEmpty()) {
        throw new IllegalArgumentException("no job of the trace fits its partition (" + rooms.entrySet().stream()
            .map(e -> e.getKey() + ": " + e.getValue().nodes() + " nodes of " + e.getValue().nodeGpus() + " GPUs")
            .collect(Collectors.joining("; ")) + ")");
      }
      return new Workload(out, first, reshaped, leftOut, toDefault);
    }
  }

  /**
   * Progress on stderr for long runs, at most every {@link #EVERY_NANOS} of wall time: the
   * simulated time reached, jobs submitted and ended, and the speed against real time.
   */
  static final class ProgressLine implements ElasticSimulation.Progress {
    static final long EVERY_NANOS = 2_000_000_000L;
    private final String name;
    private final int jobs;
    private final long t0;
    private final PrintStream err;
    private long last;

    ProgressLine(String name, int jobs, long t0, PrintStream err) {
      this.name = name;
      this.jobs = jobs;
      this.t0 = t0;
      this.err = err;
      this.last = t0;
    }

    @Override
    public void reached(Duration simulated, int submitted, int ended) {
      long now = System.nanoTime();
      if (now - last < EVERY_NANOS) {
        return;
      }
      last = now;
      double wall = (now - t0) / 1e9;
      err.printf(Locale.ROOT, "%s: simulated %d h, %d of %d jobs submitted, %d ended, %.0fx real time%n", name,
          simulated.toHours(), submitted, jobs, ended, simulated.toSeconds() / wall);
    }
  }
}
