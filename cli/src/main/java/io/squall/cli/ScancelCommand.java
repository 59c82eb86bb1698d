package io.squall.cli;

import io.squall.cli.format.JobStates;
import io.squall.cli.service.JobInfo;
import io.squall.cli.service.JobQuery;
import io.squall.cli.service.ServiceException;
import io.squall.core.sbatch.SignalSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code scancel}: cancels (or with {@code -s} signals) jobs by id, or every job matching the
 * filters. One failing job does not stop the others; the exit status says whether any failed.
 */
final class ScancelCommand extends ServiceCommand {
  ScancelCommand(Invocation io) {
    super("scancel", io);
  }

  @Override
  List<Getopt.Option> options() {
    return List.of(
        Getopt.Option.value('s', "signal"),
        Getopt.Option.value('u', "user"),
        Getopt.Option.value('t', "state"),
        Getopt.Option.value('p', "partition"),
        Getopt.Option.value('n', "name"),
        Getopt.Option.value('A', "account"),
        Getopt.Option.value('w', "nodelist"),
        Getopt.Option.value('q', "qos"),
        Getopt.Option.value('R', "reservation"),
        Getopt.Option.flag('\0', "me"),
        Getopt.Option.flag('v', "verbose"),
        Getopt.Option.flag('H', "hurry"),
        Getopt.Option.flag('Q', "quiet"));
  }

  @Override
  String usage() {
    return """
        Usage: scancel [OPTIONS] [JOBID[_TASK]...]
          -s, --signal=SIGNAL    send SIGNAL (name or number) instead of cancelling
          -u, --user=USER        jobs of USER                  --me   my jobs
          -t, --state=STATES     jobs in these states (PENDING, RUNNING, ...)
          -p, --partition=PART   jobs in PART
          -n, --name=NAME        jobs named NAME
          -A, --account=ACCOUNT  jobs of ACCOUNT
          -q, --qos=QOS          jobs of QOS
          -R, --reservation=NAME jobs in this advanced reservation
          -w, --nodelist=HOSTS   jobs running on these nodes
          -v, --verbose, -H, --hurry: accepted
          -Q, --quiet            no error for jobs that already finished
        With job ids and filters, only the listed jobs that match are cancelled.""";
  }

  @Override
  int execute(Getopt.Parsed args) {
    List<String> ids = JobIds.expand(args.operands());
    JobFilter more = JobFilter.of(args);
    boolean filtered = args.has("user") || args.has("me") || args.has("state") || args.has("partition")
        || args.has("name") || args.has("account") || more.any();
    if (ids.isEmpty() && !filtered) {
      throw new UsageException("No job identification provided");
    }
    String signal = args.has("signal") ? signal(args.last("signal")) : null;
    List<String> targets = filtered ? matching(args, ids, more) : ids;
    int failures = 0;
    for (String id : targets) {
      try {
        client().cancel(id, signal);
      } catch (ServiceException e) {
        if (e.status() == 401) {
          throw e; // no token is wrong for every job alike: say it once
        }
        if (e.status() == 409 && args.has("quiet")) {
          continue;
        }
        failures++;
        error("Kill job error on job id " + id + ": " + (e.status() == 404 ? "Invalid job id specified" : e.getMessage()));
      }
    }
    return failures == 0 ? 0 : 1;
  }

  /** {@code 9}, {@code SIGKILL} and {@code kill} all become {@code KILL}, the name the service takes. */
  private static String signal(String text) {
    try {
      return SignalSpec.signalName(SignalSpec.signalNumber(text));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** The ids of listed jobs matching the filters; with ids given, only those among them. */
  private List<String> matching(Getopt.Parsed args, List<String> ids, JobFilter more) {
    JobQuery query = new JobQuery(states(args, "state", JobStates.ACTIVE), users(args), args.list("account"),
        args.list("partition"), args.list("name"), List.of());
    Set<String> targets = new LinkedHashSet<>();
    for (JobInfo job : client().jobs(query)) {
      if (!more.keeps(job)) {
        continue;
      }
      String arrayId = job.arrayJobId() == null ? null : job.arrayJobId().toString();
      String ownId = job.jobIdRaw() == null ? null : job.jobIdRaw().toString();
      // The pending remainder of an array stands for its tasks: cancel those, not the array id
      // (which would cancel its running tasks too), and match named task ids against them.
      List<String> own = job.arrayPending() != null && !job.arrayPending().isEmpty() && job.arrayJobId() != null
          ? JobIds.tasks(job.arrayJobId(), job.arrayPending()) : List.of(job.jobId());
      for (String id : own) {
        if (ids.isEmpty() || ids.contains(id) || arrayId != null && ids.contains(arrayId)
            || ownId != null && ids.contains(ownId)) {
          targets.add(id);
        }
      }
    }
    return new ArrayList<>(targets);
  }
}
