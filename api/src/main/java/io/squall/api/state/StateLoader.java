package io.squall.api.state;

import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.store.JobRepository;
import io.squall.api.store.JobRow;
import io.squall.api.store.JobScriptRepository;
import io.squall.api.store.JobScriptRow;
import io.squall.api.store.NodeRepository;
import io.squall.api.store.NodeRow;
import io.squall.core.model.Job;
import io.squall.core.model.Node;
import io.squall.core.model.UsageLedger;
import io.squall.core.priority.UsageMeter;
import io.squall.core.sbatch.JobRequest;
import io.squall.core.sbatch.SbatchException;
import io.squall.core.sbatch.SbatchParser;
import io.squall.core.schedule.PendingReason;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the cluster state from the database when the controller starts: pending jobs stay
 * queued, running jobs stay running (their agents report in and keep them), finished jobs keep
 * their accounting; fair-share usage is as it was stored, to be decayed from when it last was.
 * Nodes get a fresh heartbeat deadline.
 */
@Singleton
public final class StateLoader {
  private static final Logger LOG = LoggerFactory.getLogger(StateLoader.class);

  private final JobRepository jobs;
  private final JobScriptRepository scripts;
  private final NodeRepository nodes;
  private final Rows rows;
  private final ClusterLayout layout;
  private final SquallConfig config;
  private final InstantSource clock;
  private final UsageStore usage;
  private final UsageMeter meter;

  public StateLoader(JobRepository jobs, JobScriptRepository scripts, NodeRepository nodes, Rows rows,
      ClusterLayout layout, SquallConfig config, InstantSource clock, UsageStore usage, UsageMeter meter) {
    this.usage = usage;
    this.meter = meter;
    this.jobs = jobs;
    this.scripts = scripts;
    this.nodes = nodes;
    this.rows = rows;
    this.layout = layout;
    this.config = config;
    this.clock = clock;
  }

  record Loaded(ClusterState state, long nextJobId) {}

  Loaded load() {
    Instant now = clock.instant();
    // A database from before usage was stored has none: it is worked out once from the jobs' runs.
    UsageLedger stored = usage.load(meter.policy().decayHalfLife()).orElse(null);
    UsageLedger ledger = stored != null ? stored : meter.empty(now);
    ClusterState state = new ClusterState(ledger);
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
    Map<Long, Submission> submissions = new HashMap<>();
    for (JobScriptRow r : scripts.findAll()) {
      submissions.put(r.jobId(), rows.submission(r));
    }
    SbatchParser parser = new SbatchParser(config.zoneId());
    Map<Long, JobRequest> requests = new HashMap<>();
    long maxId = 0;
    for (JobRow r : jobs.findAll()) {
      Submission s = submissions.get(r.jobId());
      maxId = Math.max(maxId, r.jobId());
      if (s == null) {
        LOG.error("job {} has no stored script; skipped", r.jobKey());
        continue;
      }
      JobRequest request = requests.computeIfAbsent(r.jobId(), id -> parse(parser, s));
      if (request == null) {
        continue;
      }
      // Pending reasons are not stored: the first cycle gives them again.
      StoredJob job = rows.job(r, s, request, !r.state().equals("PENDING") ? "None"
          : r.held() ? PendingReason.JOB_HELD_USER.slurmName() : PendingReason.PRIORITY.slurmName());
      state.publishJob(job);
      if (stored == null) {
        ledger = withPastRun(ledger, job);
      }
    }
    if (stored == null) {
      usage.create(ledger);
      state.publishUsage(ledger);
    }
    LOG.info("loaded {} jobs and {} nodes", state.jobs().size(), state.nodes().size());
    return new Loaded(state, maxId + 1);
  }

  private static JobRequest parse(SbatchParser parser, Submission s) {
    try {
      return parser.parse(s.script(), s.scriptName(), s.options(), s.submitTime()).request();
    } catch (SbatchException e) {
      // Only possible if the parser became stricter since the job was accepted.
      LOG.error("job {}: its script no longer parses ({}); left out of the queue", s.jobId(), e.getMessage());
      return null;
    }
  }

  /** Charges a finished job's run at its end, as it would have been charged then. */
  private UsageLedger withPastRun(UsageLedger ledger, StoredJob stored) {
    Job job = stored.job();
    if (job.startTime() == null || job.endTime() == null) {
      return ledger; // running jobs are charged from their start at the next calc period
    }
    return meter.ended(ledger, job.started(job.key(), job.partition(), stored.ranOn(), job.startTime()),
        job.endTime());
  }
}
