package io.squall.api.state;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.Job;
import io.squall.core.model.UsageLedger;
import io.squall.core.money.CostSplit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The changes of one group commit, staged over the committed state. Changes read their own
 * writes and those of earlier changes in the batch; nothing is visible to readers, and no side
 * effect runs, before the batch is durable.
 */
public final class Batch {
  private final ClusterState committed;
  private final Instant now;
  private final TreeMap<JobKey, StoredJob> jobs = new TreeMap<>();
  private final Set<JobKey> removed = new LinkedHashSet<>();
  private final Map<String, NodeStatus> nodes = new LinkedHashMap<>();
  private final Set<String> changedNodes = new LinkedHashSet<>();
  private final List<Submission> submissions = new ArrayList<>();
  private final List<JobEvent> events = new ArrayList<>();
  private final List<Runnable> effects = new ArrayList<>();
  private final List<Runnable> commitHooks = new ArrayList<>();
  private final Map<JobKey, Note> notes = new LinkedHashMap<>();
  private UsageLedger usage;
  private long nextJobId;
  /** Advanced reservations as this batch leaves them, by name; null until it changes one. */
  private java.util.TreeMap<String, io.squall.core.model.Reservation> reservations;
  private final List<io.squall.core.model.Reservation> addedReservations = new ArrayList<>();
  private final List<String> removedReservations = new ArrayList<>();

  /** Why a pending job waits (the last cycle), or a configuring one (its nodes): shown to users, not stored (said again). */
  record Note(String reason, Instant expectedStart) {}

  /** One state change of a job, for its history. */
  public record JobEvent(JobKey job, Instant time, JobState state, String reason) {}

  /**
   * A job's hold on a node that this batch begins or ends, for the money ledger.
   *
   * @param share its share of the node (see {@link CostSplit#share}) when the hold begins
   */
  record HoldingChange(JobKey job, String node, double share, boolean begins) {}

  Batch(ClusterState committed, Instant now, long nextJobId) {
    this.committed = committed;
    this.now = now;
    this.nextJobId = nextJobId;
    this.usage = committed.usage();
  }

  /** The instant of this batch, from the controller's clock. */
  public Instant now() {
    return now;
  }

  public long allocateJobId() {
    return nextJobId++;
  }

  long nextJobId() {
    return nextJobId;
  }

  public StoredJob job(JobKey key) {
    if (removed.contains(key)) {
      return null;
    }
    StoredJob staged = jobs.get(key);
    return staged != null ? staged : committed.job(key);
  }

  /** The job with this id and, for an array, its remainder and tasks. */
  public List<StoredJob> jobsWithId(long id) {
    NavigableMap<JobKey, StoredJob> merged = new TreeMap<>();
    committed.jobsWithId(id).forEach(j -> merged.put(j.key(), j));
    merged.putAll(ClusterState.subMap(jobs, id));
    removed.forEach(merged::remove);
    return new ArrayList<>(merged.values());
  }

  /** What a plain job id names (see {@link ClusterState#jobsNamed}), as staged. */
  public List<StoredJob> jobsNamed(long id) {
    List<StoredJob> byKey = jobsWithId(id);
    if (!byKey.isEmpty()) {
      return byKey;
    }
    JobKey task = committed.taskWithOwnId(id);
    if (task == null) {
      task = jobs.values().stream().filter(j -> j.job().jobId() == id).map(StoredJob::key).findFirst().orElse(null);
    }
    StoredJob j = task == null ? null : job(task);
    return j == null ? List.of() : List.of(j);
  }

  /** The jobs not finished yet, with this batch's changes: what submit limits count. */
  public List<Job> unfinishedJobs() {
    List<Job> out = new ArrayList<>();
    for (StoredJob j : committed.jobs()) {
      if (!jobs.containsKey(j.key()) && !removed.contains(j.key()) && !j.job().state().isFinished()) {
        out.add(j.job());
      }
    }
    for (StoredJob j : jobs.values()) {
      if (!removed.contains(j.key()) && !j.job().state().isFinished()) {
        out.add(j.job());
      }
    }
    return out;
  }

  /** Adds a new job (its version is null until it is stored). */
  public void insert(StoredJob job) {
    jobs.put(job.key(), job);
    removed.remove(job.key());
  }

  /** Replaces a job. */
  public void update(StoredJob job) {
    jobs.put(job.key(), job);
  }

  /** Deletes a job row (an array's remainder once its last task started). */
  public void remove(JobKey key) {
    StoredJob staged = jobs.remove(key);
    if (staged == null || staged.version() != null) {
      removed.add(key);
    }
  }

  /** Sets a pending job's reason and expected start without writing its row. */
  public void note(JobKey key, String reason, Instant expectedStart) {
    notes.put(key, new Note(reason, expectedStart));
  }

  public void submission(Submission s) {
    submissions.add(s);
  }

  public void event(JobKey job, JobState state, String reason) {
    events.add(new JobEvent(job, now, state, reason));
  }

  /** The jobs that hold resources on {@code node} (running, or configuring while it boots), as staged. */
  public List<StoredJob> jobsHolding(String node) {
    // The committed index of the node, and whatever this batch staged (it may have moved onto the node or off it).
    Set<JobKey> candidates = new TreeSet<>(committed.holdingOn(node));
    candidates.addAll(jobs.keySet());
    List<StoredJob> out = new ArrayList<>();
    for (JobKey key : candidates) {
      StoredJob j = job(key);
      if (j != null && j.job().state().holdsResources() && holds(j, node)) {
        out.add(j);
      }
    }
    return out;
  }

  private static boolean holds(StoredJob j, String node) {
    for (GpuGrant g : j.job().allocation()) {
      if (g.node().equals(node)) {
        return true;
      }
    }
    return false;
  }

  /** Every job that holds resources (running, or configuring while its nodes boot), as staged, in key order. */
  public List<StoredJob> holdingJobs() {
    Set<JobKey> candidates = new TreeSet<>(committed.holdingResources());
    candidates.addAll(jobs.keySet());
    List<StoredJob> out = new ArrayList<>();
    for (JobKey key : candidates) {
      StoredJob j = job(key);
      if (j != null && j.job().state().holdsResources()) {
        out.add(j);
      }
    }
    return out;
  }

  public NodeStatus node(String name) {
    NodeStatus staged = nodes.get(name);
    return staged != null ? staged : committed.node(name);
  }

  /**
   * Replaces a node; {@code durable} is false for changes not worth a row update (heartbeats). A
   * new reason is stamped with who set it and this batch's instant ({@link NodeStatus#stampedAfter}).
   */
  public void update(NodeStatus node, boolean durable) {
    nodes.put(node.name(), node.stampedAfter(node(node.name()), now));
    if (durable) {
      changedNodes.add(node.name());
    }
  }

  public UsageLedger usage() {
    return usage;
  }

  public void usage(UsageLedger ledger) {
    usage = ledger;
  }

  /**
   * Runs after the batch is durable, off the writer thread, one effect at a time in commit order
   * (talking to agents: a requeued job's clean-up before its relaunch).
   */
  public void afterCommit(Runnable effect) {
    effects.add(effect);
  }

  /**
   * Runs on the writer thread as soon as the batch is durable, before its callers hear of it and
   * before its {@link #afterCommit} effects: for what must not queue behind other batches' agent
   * calls (waking the scheduler, which a launch to a slow agent would otherwise hold up for as long
   * as its HTTP call takes). It must return at once: the writer waits for it.
   */
  public void onCommit(Runnable hook) {
    commitHooks.add(hook);
  }

  // What the writer reads to persist and publish the batch.

  Map<JobKey, StoredJob> stagedJobs() {
    return jobs;
  }

  Set<JobKey> removedJobs() {
    return removed;
  }

  Map<String, NodeStatus> stagedNodes() {
    return nodes;
  }

  boolean isDurableNodeChange(String name) {
    return changedNodes.contains(name);
  }

  List<Submission> submissions() {
    return submissions;
  }

  List<JobEvent> events() {
    return events;
  }

  Map<JobKey, Note> notes() {
    return notes;
  }

  List<Runnable> effects() {
    return effects;
  }

  List<Runnable> commitHooks() {
    return commitHooks;
  }

  /** The fair-share ledger as committed before this batch: what is stored. */
  UsageLedger committedUsage() {
    return committed.usage();
  }

  /** The holds on nodes the staged jobs began or ended: a job holds its nodes while it holds resources. */
  List<HoldingChange> holdingChanges() {
    List<HoldingChange> out = new ArrayList<>();
    for (Map.Entry<JobKey, StoredJob> e : jobs.entrySet()) {
      Map<String, Double> was = held(committed.job(e.getKey()));
      Map<String, Double> is = held(e.getValue());
      was.keySet().stream().filter(n -> !is.containsKey(n))
          .forEach(n -> out.add(new HoldingChange(e.getKey(), n, was.get(n), false)));
      is.forEach((n, share) -> {
        if (!was.containsKey(n)) {
          out.add(new HoldingChange(e.getKey(), n, share, true));
        }
      });
    }
    return out;
  }

  private Map<String, Double> held(StoredJob j) {
    Map<String, Double> out = new TreeMap<>();
    if (j == null || !j.job().state().holdsResources()) {
      return out;
    }
    for (GpuGrant g : j.job().allocation()) {
      NodeStatus n = node(g.node());
      out.put(g.node(), n == null ? 1 : CostSplit.share(g.gpuIndices().size(), n.node().gpus(), g.cpus(),
          n.node().cpus(), j.job().exclusive()));
    }
    return out;
  }

  /** Whether the batch changes any row (heartbeats and pending reasons alone do not). */
  boolean hasWrites() {
    return !jobs.isEmpty() || !removed.isEmpty() || !changedNodes.isEmpty() || !submissions.isEmpty()
        || !events.isEmpty() || usage != committed.usage() || reservations != null;
  }

  /** The advanced reservations, this batch's changes included, by name. */
  public List<io.squall.core.model.Reservation> reservations() {
    return reservations == null ? committed.reservations() : List.copyOf(reservations.values());
  }

  /** The reservation with this name, or null. */
  public io.squall.core.model.Reservation reservation(String name) {
    return reservations().stream().filter(r -> r.name().equals(name)).findFirst().orElse(null);
  }

  /** Adds a reservation (its name is not taken). */
  public void addReservation(io.squall.core.model.Reservation r) {
    changeReservations().put(r.name(), r);
    addedReservations.add(r);
  }

  /** Removes a reservation. */
  public void removeReservation(String name) {
    if (changeReservations().remove(name) != null) {
      addedReservations.removeIf(r -> r.name().equals(name));
      removedReservations.add(name);
    }
  }

  private java.util.TreeMap<String, io.squall.core.model.Reservation> changeReservations() {
    if (reservations == null) {
      reservations = new java.util.TreeMap<>();
      committed.reservations().forEach(r -> reservations.put(r.name(), r));
    }
    return reservations;
  }

  /** Whether this batch changed the reservations. */
  boolean changedReservations() {
    return reservations != null;
  }

  List<io.squall.core.model.Reservation> addedReservations() {
    return addedReservations;
  }

  List<String> removedReservations() {
    return removedReservations;
  }
}
