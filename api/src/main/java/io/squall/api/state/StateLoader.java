package io.squall.api.state;

import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.store.JobRepository;
import io.squall.api.store.JobRow;
import io.squall.api.store.NodeRepository;
import io.squall.api.store.NodeRow;
import io.squall.core.model.Job;
import io.squall.core.model.Node;
import io.squall.core.model.UsageLedger;
import io.squall.api.store.StoreText;
import io.squall.core.model.GpuGrant;
import io.squall.core.sbatch.Dependency;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the cluster state from the database when the controller starts: pending jobs stay
 * queued, running jobs stay running (their agents report in and keep them), finished jobs keep
 * their accounting in the database (only those finished within MinJobAge come back into memory).
 * Nodes get a fresh heartbeat deadline.
 */
@Singleton
public final class StateLoader {
  private static final Logger LOG = LoggerFactory.getLogger(StateLoader.class);
  /** Slurm's default PriorityDecayHalfLife. */
  static final Duration USAGE_HALF_LIFE = Duration.ofDays(7);
  /** Rows per query when the whole history is read for fair-share usage. */
  private static final int PAGE = 10_000;

  private final JobRepository jobs;
  private final JobHistory history;
  private final NodeRepository nodes;
  private final Rows rows;
  private final ClusterLayout layout;
  private final SquallConfig config;
  private final InstantSource clock;

  public StateLoader(JobRepository jobs, JobHistory history, NodeRepository nodes, Rows rows,
      ClusterLayout layout, SquallConfig config, InstantSource clock) {
    this.jobs = jobs;
    this.history = history;
    this.nodes = nodes;
    this.rows = rows;
    this.layout = layout;
    this.config = config;
    this.clock = clock;
  }

  record Loaded(ClusterState state, long nextJobId) {}

  Loaded load() {
    Instant now = clock.instant();
    ClusterState state = new ClusterState(UsageLedger.empty(now, USAGE_HALF_LIFE));
    for (NodeRow r : nodes.findAll()) {
      if (layout.node(r.name()) == null) {
        LOG.warn("node {} is in the database but no longer configured; ignored", r.name());
        continue;
      }
      state.publishNode(rows.node(r).heardAt(now));
    }
    for (Node n : layout.nodes()) {
      if (state.node(n.name()) == null) {
        state.publishNode(new NodeStatus(n, "agent not registered yet", null, now, null));
      }
    }
    // Memory holds what slurmctld's would: unfinished jobs, those finished within MinJobAge, and
    // those an unfinished job depends on (see JobPurge); the rest of history stays in the database.
    Duration minJobAge = config.getMinJobAge();
    List<JobRow> live = minJobAge.isZero() ? toList(jobs.findAll())
        : jobs.findUnfinishedOrEndedSince(now.minus(minJobAge));
    List<StoredJob> loaded = new ArrayList<>(history.of(live));
    Set<Long> present = new HashSet<>();
    live.forEach(r -> present.add(r.jobId()));
    Set<Long> dependedOn = new TreeSet<>();
    for (StoredJob j : loaded) {
      Dependency d = j.job().state().isFinished() ? null : j.request().control().dependency();
      if (d != null) {
        d.conditions().stream().map(Dependency.Condition::jobId).filter(id -> !present.contains(id))
            .forEach(dependedOn::add);
      }
    }
    if (!dependedOn.isEmpty()) {
      // An id names a job or an array (its key's id), else an array task by its own id.
      List<JobRow> found = new ArrayList<>(jobs.findByJobIdInList(dependedOn));
      found.forEach(r -> dependedOn.remove(r.jobId()));
      if (!dependedOn.isEmpty()) {
        found.addAll(jobs.findByOwnJobIdInList(dependedOn));
      }
      loaded.addAll(history.of(found));
    }
    loaded.forEach(state::publishJob);
    state.publishUsage(usageOfHistory(now));
    Long maxId = jobs.findMaxOwnJobId();
    LOG.info("loaded {} jobs and {} nodes", state.jobs().size(), state.nodes().size());
    return new Loaded(state, maxId == null ? 1 : maxId + 1);
  }

  private static List<JobRow> toList(Iterable<JobRow> rows) {
    List<JobRow> out = new ArrayList<>();
    rows.forEach(out::add);
    return out;
  }

  /** The fair-share ledger from every job that has run, read in pages so that history need not fit in memory. */
  private UsageLedger usageOfHistory(Instant now) {
    UsageLedger usage = UsageLedger.empty(now, USAGE_HALF_LIFE);
    String after = "";
    for (List<JobRow> page = jobs.findStartedAfterKey(after, PAGE); !page.isEmpty();
        page = jobs.findStartedAfterKey(after, PAGE)) {
      for (JobRow r : page) {
        int gpus = 0;
        for (GpuGrant g : StoreText.parseAllocation(r.allocation())) {
          gpus += g.gpuIndices().size();
        }
        usage = withUsage(usage, r.account(), r.user(), r.qos(), r.startTime(), r.endTime(),
            gpus * layout.usageFactor(r.qos()), now);
      }
      after = page.get(page.size() - 1).jobKey();
    }
    return usage;
  }

  /**
   * Adds what a job has used so far (GPU-seconds) to the fair-share ledger, times its QOS's
   * UsageFactor (Slurm's: "Usage factor when running with this QOS", 0 for free).
   */
  public static UsageLedger withUsage(UsageLedger usage, StoredJob stored, Instant now, double usageFactor) {
    Job job = stored.job();
    return withUsage(usage, job.account(), job.user(), job.qos(), job.startTime(), job.endTime(),
        stored.gpusRanOn() * usageFactor, now);
  }

  /** @param gpus GPUs held, already multiplied by the QOS's UsageFactor */
  private static UsageLedger withUsage(UsageLedger usage, String account, String user, String qos, Instant start,
      Instant end, double gpus, Instant now) {
    if (start == null) {
      return usage;
    }
    double seconds = Math.max(0, Duration.between(start, end != null ? end : now).toMillis() / 1000.0);
    return usage.plus(account, user, qos, seconds * gpus);
  }
}
