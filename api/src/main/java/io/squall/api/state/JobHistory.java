package io.squall.api.state;

import io.squall.api.config.SquallConfig;
import io.squall.api.store.JobRepository;
import io.squall.api.store.JobRow;
import io.squall.api.store.JobScriptRepository;
import io.squall.api.store.JobScriptRow;
import io.squall.core.model.JobKey;
import io.squall.core.sbatch.JobRequest;
import io.squall.core.sbatch.SbatchException;
import io.squall.core.sbatch.SbatchParser;
import io.squall.core.schedule.PendingReason;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jobs read back from the database: at start-up, and for the finished jobs that have left the
 * controller's memory (see {@link JobPurge}), which sacct and the API serve from here. Each job's
 * request is parsed again from its stored submission, so the parser stays the one source of a
 * request's meaning.
 */
@Singleton
public final class JobHistory {
  private static final Logger LOG = LoggerFactory.getLogger(JobHistory.class);
  /** Ids per query: far below any database's limit on parameters. */
  private static final int CHUNK = 1000;

  private final JobRepository jobs;
  private final JobScriptRepository scripts;
  private final Rows rows;
  private final SquallConfig config;

  public JobHistory(JobRepository jobs, JobScriptRepository scripts, Rows rows, SquallConfig config) {
    this.jobs = jobs;
    this.scripts = scripts;
    this.rows = rows;
    this.config = config;
  }

  /** Whose a job is, for the money ledger's reports and budgets, which name jobs by key. */
  public record Owner(String user, String account, String partition) {}

  /**
   * The owners of the jobs of these keys ({@code 42}, {@code 42_3}): from memory, else from the
   * database (finished past MinJobAge). Keys of jobs that do not exist are left out.
   */
  public Map<String, Owner> owners(ClusterState state, Collection<String> keys) {
    Map<String, Owner> out = new HashMap<>();
    List<String> stored = new ArrayList<>();
    for (String key : keys) {
      StoredJob j = state.job(JobKey.parse(key));
      if (j == null) {
        stored.add(key);
      } else {
        out.put(key, new Owner(j.job().user(), j.job().account(), j.job().partition()));
      }
    }
    for (JobRow r : inChunks(stored, jobs::findByJobKeyInList)) {
      out.put(r.jobKey(), new Owner(r.user(), r.account(), r.partition()));
    }
    return out;
  }

  /**
   * The stored jobs a job id names, in key order, as Slurm's commands read it: {@code 42_3} one
   * task; {@code 42} the job, or every task of array 42, else the array task whose own id is 42.
   */
  public List<StoredJob> named(JobKey key) {
    if (key.taskId() != null) {
      return of(jobs.findByJobKeyInList(List.of(key.toString())));
    }
    List<JobRow> found = jobs.findByJobIdInList(List.of(key.id()));
    return of(found.isEmpty() ? jobs.findByOwnJobIdInList(List.of(key.id())) : found);
  }

  /** Jobs that ran in [from, to]: running ones that started by {@code to}, finished ones that ended from {@code from}. */
  public List<StoredJob> ranBetween(Instant from, Instant to) {
    List<JobRow> found = new ArrayList<>(jobs.findRunningSince(to));
    found.addAll(jobs.findEndedInWindow(from, to));
    return of(found);
  }

  /**
   * The stored jobs of these rows, in key order. Pending reasons are not stored: a pending job
   * gets "Priority" (or JobHeldUser), and the next cycle says the real one. A row whose submission
   * is missing or no longer parses is left out, with an error in the log.
   */
  public List<StoredJob> of(Collection<JobRow> found) {
    Map<Long, Submission> submissions = submissions(found);
    SbatchParser parser = new SbatchParser(config.zoneId());
    // Jobs of one submission share its request, unless scontrol update changed some of them.
    Map<List<Object>, JobRequest> requests = new HashMap<>();
    List<StoredJob> out = new ArrayList<>(found.size());
    for (JobRow r : found) {
      Submission s = submissions.get(r.jobId());
      if (s == null) {
        LOG.error("job {} has no stored script; skipped", r.jobKey());
        continue;
      }
      List<String> updates = rows.updates(r);
      Submission own = updates.isEmpty() ? s : s.withUpdates(updates);
      JobRequest request = requests.computeIfAbsent(List.of(r.jobId(), updates), k -> parse(parser, own));
      if (request != null) {
        out.add(rows.job(r, own, request, !r.state().equals("PENDING") ? "None"
            : r.held() ? PendingReason.JOB_HELD_USER.slurmName() : PendingReason.PRIORITY.slurmName()));
      }
    }
    out.sort(Comparator.comparing(StoredJob::key));
    return out;
  }

  private Map<Long, Submission> submissions(Collection<JobRow> found) {
    List<Long> ids = new ArrayList<>(new TreeSet<>(found.stream().map(JobRow::jobId).toList()));
    Map<Long, Submission> out = new HashMap<>();
    for (JobScriptRow r : inChunks(ids, scripts::findByJobIdInList)) {
      out.put(r.jobId(), rows.submission(r));
    }
    return out;
  }

  /** What {@code query} finds for all of {@code keys}, asked {@link #CHUNK} at a time. */
  private static <K, R> List<R> inChunks(List<K> keys, Function<List<K>, List<R>> query) {
    List<R> out = new ArrayList<>();
    for (int i = 0; i < keys.size(); i += CHUNK) {
      out.addAll(query.apply(keys.subList(i, Math.min(keys.size(), i + CHUNK))));
    }
    return out;
  }

  private static JobRequest parse(SbatchParser parser, Submission s) {
    try {
      // As at submission: the submitter's SBATCH_* variables between the directives and the options,
      // then what scontrol update changed.
      return parser.parse(s.script(), s.scriptName(), s.environment(), s.allOptions(), s.submitTime()).request();
    } catch (SbatchException e) {
      // Only possible if the parser became stricter since the job was accepted.
      LOG.error("job {}: its script no longer parses ({}); left out", s.jobId(), e.getMessage());
      return null;
    }
  }
}
