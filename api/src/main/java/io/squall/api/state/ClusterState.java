package io.squall.api.state;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.Node;
import io.squall.core.model.Reservation;
import io.squall.core.model.UsageLedger;
import io.squall.api.config.ClusterLayout;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The committed state, readable from any thread. Only {@link StateWriter} changes it, and only
 * after the change is durable; each value is immutable, so a reader sees every job whole.
 */
public final class ClusterState {
  private final ConcurrentSkipListMap<JobKey, StoredJob> jobs = new ConcurrentSkipListMap<>();
  private final ConcurrentSkipListMap<String, NodeStatus> nodes = new ConcurrentSkipListMap<>();
  /**
   * Keys of the jobs that hold resources: every heartbeat looks for a node's jobs, and finished
   * jobs, which stay here for their history, vastly outnumber them.
   */
  private final ConcurrentSkipListSet<JobKey> holding = new ConcurrentSkipListSet<>();
  /**
   * The same jobs by the nodes they hold: a heartbeat asks for one node's jobs, and with thousands
   * of nodes reporting every few seconds a walk over every running job each time costs a core.
   */
  private final ConcurrentHashMap<String, Set<JobKey>> holdingByNode = new ConcurrentHashMap<>();
  /** Array tasks by their own job id, where it is not their array's: what a task's SLURM_JOB_ID names. */
  private final ConcurrentHashMap<Long, JobKey> tasksByOwnId = new ConcurrentHashMap<>();
  /**
   * How many of the jobs have finished: the purge walks every job only when some has (it runs on the
   * writer thread once a second, between submissions; with 36,000 held jobs the walk was 2.6 % of
   * the writer's time).
   */
  private volatile int finished;
  private volatile UsageLedger usage;
  /** Advanced reservations, by name. */
  private volatile List<Reservation> reservations = List.of();

  ClusterState(UsageLedger usage) {
    this.usage = usage;
  }

  public StoredJob job(JobKey key) {
    return jobs.get(key);
  }

  public Collection<StoredJob> jobs() {
    return jobs.values();
  }

  /** The job with this id and, for an array, the remainder and every task, in key order. */
  public Collection<StoredJob> jobsWithId(long id) {
    return subMap(jobs, id).values();
  }

  /**
   * What a plain job id names, as Slurm reads it: the job, or every task of the array with that id
   * (as {@link #jobsWithId}); else the array task whose own job id it is. Ids are never reused, so
   * it is never both.
   */
  public Collection<StoredJob> jobsNamed(long id) {
    Collection<StoredJob> byKey = jobsWithId(id);
    if (!byKey.isEmpty()) {
      return byKey;
    }
    JobKey task = tasksByOwnId.get(id);
    StoredJob j = task == null ? null : jobs.get(task);
    return j == null ? List.of() : List.of(j);
  }

  /** The array task whose own job id this is, where it is not its array's; else null. */
  JobKey taskWithOwnId(long id) {
    return tasksByOwnId.get(id);
  }

  public NodeStatus node(String name) {
    return nodes.get(name);
  }

  public Collection<NodeStatus> nodes() {
    return nodes.values();
  }

  public UsageLedger usage() {
    return usage;
  }

  /** How many of the jobs in memory have finished (they stay until MinJobAge, {@link JobPurge}). */
  public int finishedJobs() {
    return finished;
  }

  /** What a scheduling cycle reads. */
  public ClusterSnapshot snapshot(ClusterLayout layout) {
    List<Node> nodeList = new ArrayList<>(nodes.size());
    nodes.values().forEach(n -> nodeList.add(n.node()));
    List<Job> jobList = new ArrayList<>(jobs.size());
    jobs.values().forEach(j -> jobList.add(j.job()));
    return new ClusterSnapshot(nodeList, layout.partitions(), layout.qos(), layout.accounts(), layout.users(),
        jobList, usage).withReservations(reservations);
  }

  /** The advanced reservations, by name. */
  public List<Reservation> reservations() {
    return reservations;
  }

  /** The reservation with this name, or null. */
  public Reservation reservation(String name) {
    return reservations.stream().filter(r -> r.name().equals(name)).findFirst().orElse(null);
  }

  void publishReservations(List<Reservation> all) {
    List<Reservation> sorted = new ArrayList<>(all);
    sorted.sort(java.util.Comparator.comparing(Reservation::name));
    reservations = List.copyOf(sorted);
  }

  static NavigableMap<JobKey, StoredJob> subMap(NavigableMap<JobKey, StoredJob> map, long id) {
    return map.subMap(JobKey.of(id), true, new JobKey(id, Integer.MAX_VALUE), true);
  }

  /** Keys of the jobs that hold resources (running, or configuring while their nodes boot), in key order. */
  Set<JobKey> holdingResources() {
    return holding;
  }

  /** Keys of the jobs that hold resources on this node, in key order. */
  Set<JobKey> holdingOn(String node) {
    return holdingByNode.getOrDefault(node, Set.of());
  }

  /** The jobs that hold resources on this node now, in key order. */
  public List<StoredJob> holdingJobsOn(String node) {
    List<StoredJob> out = new ArrayList<>();
    for (JobKey key : holdingOn(node)) {
      StoredJob j = jobs.get(key);
      if (j != null) {
        out.add(j);
      }
    }
    return out;
  }

  /** The jobs that hold resources now, in key order: what runs on the nodes. */
  public List<StoredJob> holdingJobs() {
    List<StoredJob> out = new ArrayList<>();
    for (JobKey key : holding) {
      StoredJob j = jobs.get(key);
      if (j != null) {
        out.add(j);
      }
    }
    return out;
  }

  // Only the writer thread publishes and removes jobs, so the finished count is never raced.
  void publishJob(StoredJob job) {
    StoredJob before = jobs.put(job.key(), job);
    finished += isFinished(job) - isFinished(before);
    if (job.job().jobId() != job.key().id()) {
      tasksByOwnId.put(job.job().jobId(), job.key());
    }
    unindex(before);
    if (job.job().state().holdsResources()) {
      holding.add(job.key());
      for (GpuGrant g : job.job().allocation()) {
        holdingByNode.computeIfAbsent(g.node(), n -> new ConcurrentSkipListSet<>()).add(job.key());
      }
    } else {
      holding.remove(job.key());
    }
  }

  void removeJob(JobKey key) {
    StoredJob gone = jobs.remove(key);
    finished -= isFinished(gone);
    if (gone != null) {
      tasksByOwnId.remove(gone.job().jobId(), key);
    }
    unindex(gone);
    holding.remove(key);
  }

  private static int isFinished(StoredJob j) {
    return j != null && j.job().state().isFinished() ? 1 : 0;
  }

  /** Takes a job's former version out of the by-node index (its allocation may have changed). */
  private void unindex(StoredJob before) {
    if (before == null || !before.job().state().holdsResources()) {
      return;
    }
    for (GpuGrant g : before.job().allocation()) {
      Set<JobKey> on = holdingByNode.get(g.node());
      if (on != null) {
        on.remove(before.key());
      }
    }
  }

  void publishNode(NodeStatus node) {
    nodes.put(node.name(), node);
  }

  void publishUsage(UsageLedger ledger) {
    usage = ledger;
  }
}
