package io.squall.core.schedule;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.Node;
import io.squall.core.model.Partition;
import io.squall.core.model.PreemptMode;
import io.squall.core.model.Qos;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds running jobs to preempt for a blocked job: those in a partition of a lower PriorityTier
 * (whose PreemptMode is not OFF) or in a QOS the job's QOS may preempt. Per node it takes the
 * victims that lose the least work (GPU-seconds run so far) until the gang's share fits, then
 * picks the cheapest nodes, one placement group first. A victim is chosen once per cycle.
 *
 * <p>Nodes with room already count as nodes that cost nothing, so a gang that lacks only some of
 * its nodes stops the jobs on those alone. Slurm does the same: its select plugin removes the
 * preemptable jobs from a copy of the cluster, places the job there on all its nodes (free ones
 * as they are), and preempts only the candidates that run on the nodes chosen (SchedMD/slurm
 * {@code src/plugins/select/cons_tres/job_test.c}, {@code _run_now}).
 *
 * <p>A job already preempted and still in its grace time is a victim like any other, the
 * cheapest, so a job waiting out its victims' grace counts the nodes they will free and stops no
 * one else in later cycles. Slurm too lists running jobs as candidates whether or not they are
 * being preempted ({@code src/plugins/preempt/partition_prio}, {@code find_preemptable_jobs}),
 * and a candidate already preempted keeps its grace, neither signalled again nor given more time
 * ({@code src/slurmctld/preempt.c}, {@code slurm_job_check_grace} and {@code _preempt_signal}).
 */
final class Preemptor {
  /** A victim and how it is to be stopped. */
  record Victim(Job job, PreemptMode mode, int graceSeconds) {
    /** Preempted in an earlier cycle and still in its grace time: it needs no new signal. */
    boolean alreadyPreempted() {
      return job.preemptedAt() != null;
    }
  }

  private final NodeTable table;
  private final int[] groupOf;
  private final int groupCount;
  private final List<List<Job>> runningOn;
  private final Map<String, Partition> partitions;
  private final Map<String, Qos> qos;
  private final Instant now;
  private final Set<Job> taken = new HashSet<>();

  Preemptor(NodeTable table, int[] groupOf, int groupCount, List<List<Job>> runningOn,
      Map<String, Partition> partitions, Map<String, Qos> qos, Instant now) {
    this.table = table;
    this.groupOf = groupOf;
    this.groupCount = groupCount;
    this.runningOn = runningOn;
    this.partitions = partitions;
    this.qos = qos;
    this.now = now;
  }

  /** A node the gang could use once {@code victims} are stopped, losing {@code cost} of work. */
  private record NodeCost(int node, double cost, List<Victim> victims) {}

  /** @return the victims to stop, or an empty list when preempting cannot make room */
  List<Victim> victimsFor(Job job, Partition partition, GangShape shape, int[] eligible) {
    Qos jobQos = job.qos() == null ? null : qos.get(job.qos());
    List<List<NodeCost>> byGroup = new ArrayList<>();
    for (int g = 0; g < groupCount; g++) {
      byGroup.add(new ArrayList<>());
    }
    for (int i : eligible) {
      NodeCost nc = makeRoom(i, shape, partition, jobQos);
      if (nc != null) {
        byGroup.get(groupOf[i]).add(nc);
      }
    }
    // Cheapest group that can hold the gang alone; else cheapest nodes anywhere.
    List<NodeCost> best = null;
    double bestCost = Double.MAX_VALUE;
    List<NodeCost> all = new ArrayList<>();
    for (List<NodeCost> group : byGroup) {
      group.sort(Comparator.comparingDouble(NodeCost::cost).thenComparingInt(NodeCost::node));
      all.addAll(group);
      if (group.size() >= shape.nodes()) {
        List<NodeCost> pick = group.subList(0, shape.nodes());
        double cost = pick.stream().mapToDouble(NodeCost::cost).sum();
        if (cost < bestCost) {
          best = pick;
          bestCost = cost;
        }
      }
    }
    if (best == null) {
      all.sort(Comparator.comparingDouble(NodeCost::cost).thenComparingInt(NodeCost::node));
      if (all.size() < shape.nodes()) {
        return List.of();
      }
      best = all.subList(0, shape.nodes());
    }
    Set<Victim> victims = new LinkedHashSet<>();
    best.forEach(nc -> victims.addAll(nc.victims()));
    // Room for the whole gang without stopping anyone: what holds it back is not running work
    // (a reservation, its zone, its nodelist), and stopping jobs would not start it.
    if (victims.isEmpty()) {
      return List.of();
    }
    victims.forEach(v -> taken.add(v.job()));
    return List.copyOf(victims);
  }

  /**
   * The victims that make room for the gang's share of node {@code i}, least work lost first;
   * none when it has room already; null when stopping what may be stopped there is not enough.
   */
  private NodeCost makeRoom(int i, GangShape shape, Partition partition, Qos jobQos) {
    int gpus = table.freeGpus(i);
    int cpus = table.freeCpus[i];
    long mem = table.freeMemory[i];
    if (fits(i, shape, gpus, cpus, mem)) {
      // Nothing to stop here: the gang's other nodes may be the ones that need victims.
      return new NodeCost(i, 0, List.of());
    }
    List<Victim> candidates = new ArrayList<>();
    for (Job running : runningOn.get(i)) {
      Victim v = asVictim(running, partition, jobQos);
      if (v != null && !taken.contains(running)) {
        candidates.add(v);
      }
    }
    candidates.sort(Comparator.comparingDouble((Victim v) -> lostWork(v.job())).thenComparing(v -> v.job().key()));
    Node node = table.nodes.get(i);
    List<Victim> chosen = new ArrayList<>();
    double cost = 0;
    for (Victim v : candidates) {
      if (fits(i, shape, gpus, cpus, mem)) {
        break;
      }
      int freedGpus = 0;
      int freedCpus = 0;
      long freedMem = 0;
      boolean exclusive = v.job().exclusive();
      for (GpuGrant grant : v.job().allocation()) {
        if (grant.node().equals(node.name())) {
          NodeTable.Amount freed = table.held(i, grant, exclusive);
          freedGpus += freed.gpus();
          freedCpus += freed.cpus();
          freedMem += freed.memoryMb();
        }
      }
      boolean helps = (freedGpus > 0 && gpus < table.needGpus(i, shape))
          || (freedCpus > 0 && cpus < table.needCpus(i, shape))
          || (freedMem > 0 && mem < table.needMemory(i, shape));
      if (!helps) {
        continue; // stopping it frees nothing the gang still lacks here
      }
      gpus += freedGpus;
      cpus += freedCpus;
      mem += freedMem;
      chosen.add(v);
      cost += lostWork(v.job());
    }
    boolean room = !chosen.isEmpty() && fits(i, shape, Math.min(gpus, node.gpus()), Math.min(cpus, node.cpus()),
        Math.min(mem, node.memoryMb()));
    return room ? new NodeCost(i, cost, chosen) : null;
  }

  private boolean fits(int i, GangShape s, int gpus, int cpus, long mem) {
    return gpus >= table.needGpus(i, s) && cpus >= table.needCpus(i, s) && mem >= table.needMemory(i, s);
  }

  /** Whether the running job may be preempted for a job of this partition and QOS, and how. */
  private Victim asVictim(Job running, Partition partition, Qos jobQos) {
    Partition theirs = partitions.get(running.partition());
    PreemptMode mode = null;
    int grace = 0;
    if (theirs != null && theirs.priorityTier() < partition.priorityTier() && theirs.preemptMode() != PreemptMode.OFF) {
      mode = theirs.preemptMode();
      grace = theirs.graceTimeSeconds();
    } else if (jobQos != null && running.qos() != null && jobQos.preempt().contains(running.qos())) {
      Qos theirQos = qos.get(running.qos());
      mode = theirQos == null ? PreemptMode.REQUEUE : theirQos.preemptMode();
      grace = theirs == null ? 0 : theirs.graceTimeSeconds();
    }
    if (mode == null || mode == PreemptMode.OFF) {
      return null;
    }
    if (mode == PreemptMode.REQUEUE && Boolean.FALSE.equals(running.request().control().requeue())) {
      mode = PreemptMode.CANCEL;
    }
    return new Victim(running, mode, grace);
  }

  /**
   * Work lost by stopping the job now: GPU-seconds since it started (all of its nodes); none for
   * a job already preempted, whose work is lost whoever waits for its nodes.
   */
  private double lostWork(Job job) {
    if (job.preemptedAt() != null) {
      return 0;
    }
    long seconds = job.startTime() == null ? 0 : Math.max(0, Duration.between(job.startTime(), now).toSeconds());
    return (double) Math.max(1, job.gpusHeld()) * seconds;
  }
}
