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
import io.squall.core.sbatch.JobRequest;
import io.squall.core.sbatch.SbatchException;
import io.squall.core.sbatch.SbatchParser;
import io.squall.core.schedule.PendingReason;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the cluster state from the database when the controller starts: pending jobs stay
 * queued, running jobs stay running (their agents report in and keep them), finished jobs keep
 * their accounting. Nodes get a fresh heartbeat deadline.
 */
@Singleton
public final class StateLoader {
  private static final Logger LOG = LoggerFactory.getLogger(StateLoader.class);
  /** Slurm's default PriorityDecayHalfLife. */
  static final Duration USAGE_HALF_LIFE = Duration.ofDays(7);

  private final JobRepository jobs;
  private final JobScriptRepository scripts;
  private final NodeRepository nodes;
  private final Rows rows;
  private final ClusterLayout layout;
  private final SquallConfig config;
  private final InstantSource clock;

  public StateLoader(JobRepository jobs, JobScriptRepository scripts, NodeRepository nodes, Rows rows,
      ClusterLayout layout, SquallConfig config, InstantSource clock) {
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
    Map<Long, Submission> submissions = new HashMap<>();
    for (JobScriptRow r : scripts.findAll()) {
      submissions.put(r.jobId(), rows.submission(r));
    }
    SbatchParser parser = new SbatchParser(config.zoneId());
    // Jobs of one submission share its request, unless scontrol update changed some of them.
    Map<List<Object>, JobRequest> requests = new HashMap<>();
    UsageLedger usage = state.usage();
    long maxId = 0;
    for (JobRow r : jobs.findAll()) {
      Submission s = submissions.get(r.jobId());
      maxId = Math.max(maxId, r.jobId());
      if (s == null) {
        LOG.error("job {} has no stored script; skipped", r.jobKey());
        continue;
      }
      List<String> updates = rows.updates(r);
      Submission own = updates.isEmpty() ? s : s.withUpdates(updates);
      JobRequest request = requests.computeIfAbsent(List.of(r.jobId(), updates), k -> parse(parser, own));
      if (request == null) {
        continue;
      }
      // Pending reasons are not stored: the first cycle gives them again.
      StoredJob job = rows.job(r, own, request, !r.state().equals("PENDING") ? "None"
          : r.held() ? PendingReason.JOB_HELD_USER.slurmName() : PendingReason.PRIORITY.slurmName());
      state.publishJob(job);
      usage = withUsage(usage, job, now);
    }
    state.publishUsage(usage);
    LOG.info("loaded {} jobs and {} nodes", state.jobs().size(), state.nodes().size());
    return new Loaded(state, maxId + 1);
  }

  private static JobRequest parse(SbatchParser parser, Submission s) {
    try {
      // As at submission: the submitter's SBATCH_* variables between the directives and the options.
      return parser.parse(s.script(), s.scriptName(), s.environment(), s.allOptions(), s.submitTime()).request();
    } catch (SbatchException e) {
      // Only possible if the parser became stricter since the job was accepted.
      LOG.error("job {}: its script no longer parses ({}); left out of the queue", s.jobId(), e.getMessage());
      return null;
    }
  }

  /** Adds what a job has used so far (GPU-seconds) to the fair-share ledger. */
  public static UsageLedger withUsage(UsageLedger usage, StoredJob stored, Instant now) {
    Job job = stored.job();
    if (job.startTime() == null) {
      return usage;
    }
    Instant end = job.endTime() != null ? job.endTime() : now;
    double seconds = Math.max(0, Duration.between(job.startTime(), end).toMillis() / 1000.0);
    return usage.plus(job.account(), job.user(), job.qos(), seconds * stored.gpusRanOn());
  }
}
