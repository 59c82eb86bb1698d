package io.squall.api.jobs;

import io.squall.api.auth.Caller;
import io.squall.api.config.SquallConfig;
import io.squall.api.state.ApiException;
import io.squall.api.state.Batch;
import io.squall.api.state.StoredJob;
import io.squall.api.state.Submission;
import io.squall.core.model.Job;
import io.squall.core.model.Partition;
import io.squall.core.sbatch.JobRequest;
import io.squall.core.sbatch.SbatchException;
import io.squall.core.sbatch.SbatchParser;
import io.squall.core.sbatch.TimeLimit;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;

/**
 * Applies a {@link JobUpdate} to a pending job. The update's options are added after the
 * submission's own and the request is read again from both, by the parser sbatch's requests go
 * through (one set of rules), then checked against the cluster as a submission is. The options
 * stay with the job ({@link Submission#updates}), so a restarted controller reads the same request.
 *
 * <p>As scontrol(1) says, only operators raise a time limit ("Only the Slurm administrator or root
 * can increase job's TimeLimit"), set a priority or give a negative nice; anyone may lower their
 * job's limit, move it to another partition or QOS, or change its node count or dependencies. A
 * new dependency makes the job's age count again from when it is met, as its age counts only
 * while it could run.
 */
@Singleton
final class JobUpdates {
  private final SquallConfig config;
  private final ClusterRules rules;

  JobUpdates(SquallConfig config, ClusterRules rules) {
    this.config = config;
    this.rules = rules;
  }

  /** @throws ApiException 400 for a value sbatch would refuse or the cluster cannot hold, 403 for an operator's change */
  StoredJob apply(Batch b, StoredJob j, JobUpdate update, Caller caller) {
    Submission s = j.submission();
    int limitNow = limit(j.request());
    List<String> words = update.options(limitNow);
    Submission updated = s.updatedWith(words);
    JobRequest r;
    try {
      r = new SbatchParser(config.zoneId()).parse(s.script(), s.scriptName(), s.environment(), updated.allOptions(),
          s.submitTime()).request().withHold(j.held());
    } catch (SbatchException e) {
      throw ApiException.badRequest(slurmWords(update, e));
    }
    rules.check(r);
    if (!caller.operator()) {
      JobCommands.operatorOnly(update.priority() == null ? null : r.control().priority(),
          update.nice() == null ? null : r.control().nice());
      int limitThen = limit(r);
      if (raises(limitNow, limitThen)) {
        throw ApiException.forbidden("TimeLimit: only operators and administrators can raise a job's time limit"
            + " (Access/permission denied): job " + j.key() + " has " + minutes(limitNow) + ", asked "
            + minutes(limitThen));
      }
    }
    ClusterRules.checkDependencies(b, j.key().id(), r.control().dependency());
    if (update.reservation() != null) {
      ClusterRules.checkReservation(b.reservations(), r, j.job().user(), j.job().account(), b.now());
    }
    Job job = j.job().withRequest(r);
    if (update.qos() != null) {
      job = job.withQos(r.control().qos());
    }
    if (update.dependency() != null && r.control().dependency() != null) {
      job = job.eligibleSince(null);
    }
    return j.withJob(job).withSubmission(updated);
  }

  /** The job's time limit in minutes in the partition it would run in first, as a cycle resolves it. */
  private int limit(JobRequest r) {
    List<Partition> usable = rules.usable(r);
    return usable.isEmpty() ? TimeLimit.UNLIMITED : usable.get(0).timeLimitMinutes(r.timing().timeLimitMinutes());
  }

  private static boolean raises(int before, int after) {
    if (after == TimeLimit.UNLIMITED) {
      return before != TimeLimit.UNLIMITED;
    }
    return before != TimeLimit.UNLIMITED && after > before;
  }

  private static String minutes(int limit) {
    return limit == TimeLimit.UNLIMITED ? "UNLIMITED" : TimeLimit.format(limit);
  }

  /** The parser's reason under scontrol's name for the field ({@code TimeLimit=abc: invalid time ...}). */
  private static String slurmWords(JobUpdate update, SbatchException e) {
    Map<String, String> options = Map.of("--time=", "TimeLimit", "--partition=", "Partition", "--qos=", "QOS",
        "--nodes=", "NumNodes", "--dependency=", "Dependency", "--nice=", "Nice", "--priority=", "Priority",
        "--reservation=", "ReservationName");
    for (Map.Entry<String, String> o : options.entrySet()) {
      if (e.directive().startsWith(o.getKey()) && e.where().equals("option")) {
        return o.getValue() + "=" + e.directive().substring(o.getKey().length()) + ": " + e.reason();
      }
    }
    return e.getMessage();
  }
}
