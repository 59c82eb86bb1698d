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
import io.squall.core.priority.UsageMeter;
import io.squall.core.sbatch.Dependency;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
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
 * their accounting in the database (only those finished within MinJobAge come back into memory);
 * fair-share usage is as it was stored, to be decayed from when it last was. Nodes get a fresh
 * heartbeat deadline.
 */
@Singleton
public final class StateLoader {
  private static final Logger LOG = LoggerFactory.getLogger(StateLoader.class);
  /** Rows per query when the whole history is read, so that it need not fit in memory. */
  private static final int PAGE = 10_000;

  private final JobRepository jobs;
  private final JobHistory history;
  private final NodeRepository nodes;
  private final Rows rows;
  private final ClusterLayout layout;
  private final SquallConfig config;
  private final InstantSource clock;
  private final UsageStore usage;
  private final UsageMeter meter;
  private final io.squall.api.store.ReservationRepository reservations;

  public StateLoader(JobRepository jobs, JobHistory history, NodeRepository nodes, Rows rows,
      ClusterLayout layout, SquallConfig config, InstantSource clock, UsageStore usage, UsageMeter meter,
      io.squall.api.store.ReservationRepository reservations) {
    this.reservations = reservations;
    this.jobs = jobs;
    this.history = history;
    this.nodes = nodes;
    this.rows = rows;
    this.layout = layout;
    this.config = config;
    this.clock = clock;
    this.usage = usage;
    this.meter = meter;
  }

  record Loaded(ClusterState state, long nextJobId) {}

  Loaded load() {
    Instant now = clock.instant();
    // A database from before usage was stored has none: it is worked out once from the jobs' runs.
    UsageLedger stored = usage.load(meter.policy().decayHalfLife()).orElse(null);
    ClusterState state = new ClusterState(stored != null ? stored : meter.empty(now));
    for (NodeRow r : nodes.findAll()) {
      if (layout.node(r.name()) == null) {
        LOG.warn("node {} is in the database but no longer configured; ignored", r.name());
        continue;
      }
      state.publishNode(rows.node(r).heardAt(now));
    }
    for (Node n : layout.nodes()) {
      if (state.node(n.name()) == null) {
        state.publishNode(new NodeStatus(n, "agent not registered yet", null, now, null, NodeStatus.CONTROLLER,
            now.truncatedTo(ChronoUnit.SECONDS)));
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
    List<io.squall.core.model.Reservation> kept = new ArrayList<>();
    reservations.findAll().forEach(r -> kept.add(StoredReservations.reservation(r)));
    state.publishReservations(kept);
    if (stored == null) {
      UsageLedger ledger = usageOfPastRuns(now);
      usage.create(ledger);
      state.publishUsage(ledger);
    }
    Long maxId = jobs.findMaxOwnJobId();
    LOG.info("loaded {} jobs and {} nodes", state.jobs().size(), state.nodes().size());
    return new Loaded(state, maxId == null ? 1 : maxId + 1);
  }

  private static List<JobRow> toList(Iterable<JobRow> rows) {
    List<JobRow> out = new ArrayList<>();
    rows.forEach(out::add);
    return out;
  }

  /**
   * Every finished run charged at its end, as it would have been charged then; running jobs are
   * charged from their start at the next calc period. Read in pages: history need not fit in memory.
   */
  private UsageLedger usageOfPastRuns(Instant now) {
    UsageLedger ledger = meter.empty(now);
    String after = "";
    for (List<JobRow> page = jobs.findStartedAfterKey(after, PAGE); !page.isEmpty();
        page = jobs.findStartedAfterKey(after, PAGE)) {
      for (StoredJob stored : history.of(page)) {
        Job job = stored.job();
        if (job.endTime() != null) {
          ledger = meter.ended(ledger, job.started(job.key(), job.partition(), stored.ranOn(), job.startTime()),
              job.endTime());
        }
      }
      after = page.get(page.size() - 1).jobKey();
    }
    return ledger;
  }
}
