package io.squall.cli;

import io.squall.core.model.Account;
import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.model.Partition;
import io.squall.core.model.PreemptMode;
import io.squall.core.model.Qos;
import io.squall.core.model.UsageLedger;
import io.squall.core.model.UserAssociation;
import io.squall.core.sbatch.JobRequest;
import io.squall.core.sbatch.SbatchParser;
import io.squall.core.schedule.Plan;
import io.squall.core.schedule.Scheduler;
import io.squall.core.schedule.SchedulerConfig;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * {@code squall bench scheduler}: full scheduling cycles (priority, placement, backfill,
 * preemption) on a synthetic cluster and queue built from a seed. Every cycle reads the same
 * snapshot, so each one does the whole work of a busy cluster's cycle.
 */
final class SchedulerBench {
  private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
  private static final int NODES_PER_GROUP = 32;

  private SchedulerBench() {}

  static int run(Map<String, String> opts, PrintStream out) {
    int nodeCount = Integer.parseInt(opts.getOrDefault("nodes", "10000"));
    int gpus = Integer.parseInt(opts.getOrDefault("gpus-per-node", "8"));
    int pending = Integer.parseInt(opts.getOrDefault("pending", "100000"));
    long seed = Long.parseLong(opts.getOrDefault("seed", "1"));
    int cycles = Integer.parseInt(opts.getOrDefault("cycles", "7"));
    SplittableRandom rnd = new SplittableRandom(seed);

    ClusterSnapshot snapshot = build(nodeCount, gpus, pending, rnd);
    Scheduler scheduler = new Scheduler(SchedulerConfig.defaults());
    scheduler.cycle(snapshot, NOW); // warm-up: JIT, not counted
    long[] ms = new long[cycles];
    int startedFirst = 0;
    for (int c = 0; c < cycles; c++) {
      long t0 = System.nanoTime();
      Plan plan = scheduler.cycle(snapshot, NOW);
      ms[c] = (System.nanoTime() - t0) / 1_000_000;
      if (c == 0) {
        startedFirst = plan.starts().size();
      }
      out.printf("cycle %d: %d ms, %d starts, %d actions%n", c + 1, ms[c], plan.starts().size(), plan.actions().size());
    }
    System.gc();
    long heapMb = (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) / (1024 * 1024);
    java.lang.ref.Reference.reachabilityFence(snapshot); // the heap figure includes the cluster and queue
    long[] sorted = ms.clone();
    Arrays.sort(sorted);
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("nodes", nodeCount);
    line.put("pending", pending);
    line.put("cycles", cycles);
    line.put("cycle_ms_median", sorted[cycles / 2]);
    line.put("cycle_ms_max", sorted[cycles - 1]);
    line.put("started_first_cycle", startedFirst);
    line.put("heap_mb", heapMb);
    out.println(Json.write(line));
    return 0;
  }

  /**
   * Three partitions over placement groups of 32 nodes: batch (half), interactive (a tenth, short
   * jobs), and a lower-tier preemptable spot partition over the rest. About 40% of the nodes
   * already run whole-node jobs. The queue mixes single-GPU jobs, gangs of 1 to 64 nodes and
   * arrays, over 20 users in 5 accounts.
   */
  static ClusterSnapshot build(int nodeCount, int gpus, int pending, SplittableRandom rnd) {
    List<Node> nodes = new ArrayList<>(nodeCount);
    for (int i = 0; i < nodeCount; i++) {
      nodes.add(new Node(String.format("gpu%05d", i), gpus, "h100", 192, 2_000_000, Set.of("h100", "ib"),
          "pg" + (i / NODES_PER_GROUP), NodeState.IDLE));
    }
    List<String> names = nodes.stream().map(Node::name).toList();
    int batchEnd = nodeCount / 2;
    int interactiveEnd = batchEnd + nodeCount / 10;
    List<Partition> partitions = List.of(
        Partition.of("batch", names.subList(0, batchEnd)).asDefault().withLimits(4320, 240, null)
            .withPriority(2, 2, PreemptMode.OFF, 0),
        Partition.of("interactive", names.subList(batchEnd, interactiveEnd)).withLimits(240, 60, 4)
            .withPriority(4, 2, PreemptMode.OFF, 0),
        Partition.of("spot", names.subList(interactiveEnd, nodeCount)).withLimits(null, 120, null)
            .withPriority(1, 1, PreemptMode.REQUEUE, 120));
    List<Account> accounts = new ArrayList<>();
    List<UserAssociation> users = new ArrayList<>();
    for (int a = 0; a < 5; a++) {
      accounts.add(new Account("team" + a, null, 1 + a));
      for (int u = 0; u < 4; u++) {
        users.add(new UserAssociation("user" + a + u, "team" + a, 1));
      }
    }
    SbatchParser parser = new SbatchParser(ZoneOffset.UTC);
    List<Job> jobs = new ArrayList<>(pending + nodeCount);
    long id = 1;
    // Running whole-node work on ~40% of the nodes, ending over the next hours.
    for (int i = 0; i < nodeCount; i++) {
      if (rnd.nextInt(10) < 4) {
        Partition p = i < batchEnd ? partitions.get(0) : i < interactiveEnd ? partitions.get(1) : partitions.get(2);
        JobRequest r = parse(parser, "-p " + p.name() + " --gres=gpu:" + gpus + " -t " + (30 + rnd.nextInt(200)));
        Instant started = NOW.minus(Duration.ofMinutes(rnd.nextInt(30)));
        GpuGrant grant = new GpuGrant(nodes.get(i).name(), range(gpus), 8, 0);
        jobs.add(Job.pending(id, r, "user00", "team0", "normal", started).started(JobKey.of(id), p.name(),
            List.of(grant), started));
        id++;
      }
    }
    JobRequest[] templates = templates(parser, gpus);
    for (int k = 0; k < pending; k++) {
      int a = rnd.nextInt(5);
      JobRequest r = templates[rnd.nextInt(templates.length)];
      Instant submitted = NOW.minus(Duration.ofSeconds(rnd.nextInt(86_400)));
      jobs.add(Job.pending(id++, r, "user" + a + rnd.nextInt(4), "team" + a, "normal", submitted));
    }
    UsageLedger usage = UsageLedger.empty(NOW, Duration.ofDays(7));
    List<UsageLedger.Use> used = new ArrayList<>();
    for (int a = 0; a < 5; a++) {
      int gpuSeconds = rnd.nextInt(1_000_000);
      used.add(new UsageLedger.Use("team" + a, "user" + a + "0", "normal", gpuSeconds, gpuSeconds));
    }
    usage = usage.plus(used, NOW);
    return new ClusterSnapshot(nodes, partitions, Map.of("normal", Qos.normal()), accounts, users, jobs, usage);
  }

  /** The queue's job shapes, parsed once from sbatch options (requests are immutable and shared). */
  private static JobRequest[] templates(SbatchParser parser, int gpus) {
    List<String> shapes = new ArrayList<>();
    for (String t : List.of("15", "60", "240")) {
      for (int g = 1; g <= gpus; g *= 2) {
        shapes.add("--gres=gpu:" + g + " -t " + t); // single-node jobs: the bulk of the queue
        shapes.add("-p spot --gres=gpu:" + g + " -t " + t);
      }
      shapes.add("-p interactive --gres=gpu:1 -t " + t);
      for (int n : new int[] {2, 4, 8, 16, 32, 64}) {
        shapes.add("-N " + n + " --gres=gpu:" + gpus + " -t " + t + " --exclusive");
      }
      shapes.add("-p spot -N 8 --gres=gpu:" + gpus + " -t " + t);
      shapes.add("--array=0-99%10 --gres=gpu:1 -t " + t);
    }
    JobRequest[] out = new JobRequest[shapes.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = parse(parser, shapes.get(i));
    }
    return out;
  }

  private static JobRequest parse(SbatchParser parser, String options) {
    return parser.parse("#!/bin/bash\nsrun python train.py\n", "bench.sh", List.of(options.split(" ")), NOW).request();
  }

  private static List<Integer> range(int n) {
    List<Integer> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }
}
