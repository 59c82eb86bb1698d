package io.squall.api.jobs;

import io.micronaut.http.HttpStatus;
import io.squall.api.auth.Caller;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.scheduling.Wakeup;
import io.squall.api.spot.InterruptionResponder;
import io.squall.api.state.ApiException;
import io.squall.api.state.Batch;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.api.state.Submission;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.sbatch.ArraySpec;
import io.squall.core.sbatch.JobRequest;
import io.squall.core.sbatch.SbatchException;
import io.squall.core.sbatch.SbatchParser;
import io.squall.core.schedule.PendingReason;
import io.squall.core.schedule.SubmitLimits;
import jakarta.inject.Singleton;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** What users do to jobs: submit, cancel, signal, hold, release, requeue, pause. */
@Singleton
public final class JobCommands {
  private static final String HELD = PendingReason.JOB_HELD_USER.slurmName();
  private final StateWriter writer;
  private final JobLifecycle lifecycle;
  private final ClusterLayout layout;
  private final SquallConfig config;
  private final InstantSource clock;
  private final Wakeup scheduler;
  private final InterruptionResponder checkpointed;
  private final ClusterRules rules;
  private final JobUpdates updates;

  public JobCommands(StateWriter writer, JobLifecycle lifecycle, ClusterLayout layout, SquallConfig config,
      InstantSource clock, Wakeup scheduler, InterruptionResponder checkpointed, ClusterRules rules,
      JobUpdates updates) {
    this.writer = writer;
    this.rules = rules;
    this.updates = updates;
    this.checkpointed = checkpointed;
    this.lifecycle = lifecycle;
    this.layout = layout;
    this.config = config;
    this.clock = clock;
    this.scheduler = scheduler;
  }

  /** A parsed, checked submission: ready to queue (or to test with --test-only). */
  public record Accepted(JobRequest request, List<String> warnings, String account, String qos) {}

  /** Parses and checks a submission; runs on the caller's thread. @throws ApiException 400 with the parser's message */
  public Accepted check(Caller caller, SubmitInput in) {
    SbatchParser.Result parsed;
    try {
      parsed = new SbatchParser(config.zoneId()).parse(in.script(), in.scriptName(), in.environment(), in.options(),
          clock.instant());
    } catch (SbatchException e) {
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("where", e.where());
      details.put("directive", e.directive());
      details.put("reason", e.reason());
      throw new ApiException(HttpStatus.BAD_REQUEST, e.getMessage(), details);
    }
    JobRequest r = parsed.request();
    if (in.interactive() && r.control().array() != null) {
      // salloc and srun have no --array: an array is of batch jobs.
      throw ApiException.badRequest("--array: an interactive allocation (salloc, srun) cannot be a job array;"
          + " submit a batch script with sbatch --array");
    }
    checkArraySize(r.control().array());
    String account = r.control().account() != null ? r.control().account() : caller.account();
    if (!caller.operator() && !account.equals(caller.account())) {
      throw ApiException.badRequest("--account=" + account + ": Invalid account or account/partition combination"
          + " specified (user " + caller.user() + " may use account " + caller.account() + ")");
    }
    if (!caller.operator()) {
      operatorOnly(r.control().priority(), r.control().nice());
    }
    if (layout.accounts().stream().noneMatch(a -> a.name().equals(account))) {
      throw ApiException.badRequest("--account=" + account + ": no such account");
    }
    rules.check(r);
    String qos = r.control().qos() != null ? r.control().qos() : config.getDefaultQos();
    return new Accepted(r, parsed.warnings(), account, qos);
  }

  /**
   * MaxArraySize is the cluster's, so slurmctld checks it, not sbatch; here too the server does
   * and {@code --parse-only} does not.
   */
  private void checkArraySize(ArraySpec array) {
    int max = config.getMaxArraySize();
    if (array != null && array.lastTaskId() >= max) {
      throw ApiException.badRequest("--array=" + array + ": Invalid job array specification (task id "
          + array.lastTaskId() + " is above " + (max - 1) + ": this cluster's MaxArraySize is " + max
          + ", squall.max-array-size)");
    }
  }

  /**
   * Refuses what only operators may ask for, as sbatch(1) says: "Only Slurm operators and
   * administrators can set the priority of a job" (--priority), and "Only privileged users can
   * specify a negative adjustment" (--nice). Otherwise any user could jump the queue. At
   * submission the whole request is checked, at an update the fields it sets.
   */
  static void operatorOnly(Long priority, Integer nice) {
    if (priority != null) {
      throw ApiException.forbidden("--priority: only operators and administrators can set a job's priority "
          + "(Access/permission denied)");
    }
    if (nice != null && nice < 0) {
      throw ApiException.forbidden("--nice=" + nice + ": only operators and administrators can give "
          + "a negative nice value (Invalid nice value); 0 or more lowers your job's own priority");
    }
  }

  /** Queues a checked submission; completes with the job id once it is durable. */
  public CompletableFuture<Long> submit(Caller caller, SubmitInput in, Accepted accepted) {
    return writer.write(b -> {
      long id = b.allocateJobId();
      ClusterRules.checkDependencies(b, id, accepted.request().control().dependency());
      ClusterRules.checkReservation(b.reservations(), accepted.request(), caller.user(), accepted.account(), b.now());
      Submission s = new Submission(id, in.scriptName(), in.script(), in.options(), in.scriptArgs(), in.environment(),
          in.submitDir(), b.now(), List.of(), in.interactive());
      Job job = Job.pending(id, accepted.request(), caller.user(), accepted.account(), accepted.qos(), b.now());
      // In the batch, so that two submissions at once cannot both take the last place.
      String overLimit = SubmitLimits.jobLimitRefusal(job, layout.accounts(), layout.qos(), b::unfinishedJobs);
      if (overLimit != null) {
        throw ApiException.badRequest(overLimit);
      }
      b.submission(s);
      b.insert(new StoredJob(job, s, accepted.request().control().hold() ? HELD : "None", null, null, null,
          null, List.of(), null));
      b.event(job.key(), JobState.PENDING, "submitted by " + caller.user());
      if (!accepted.request().control().hold()) {
        // A held job cannot start until released (which wakes the scheduler): a cycle now would be for nothing.
        b.onCommit(scheduler::wake);
      }
      return id;
    });
  }

  /** scancel: ends pending jobs at once, stops running ones (SIGTERM, SIGKILL after KillWait). */
  public CompletableFuture<List<StoredJob>> cancel(Caller caller, String id) {
    return act(caller, id, new JobAction() {
      @Override
      public boolean allows(StoredJob j) {
        return !j.job().state().isFinished() && j.ending() == null;
      }

      @Override
      public void apply(Batch b, StoredJob j) {
        lifecycle.stop(b, j, JobState.CANCELLED, "cancelled by " + caller.user());
      }
    }, "the job has already ended");
  }

  /** scancel -s SIG: signals a running job's processes and changes nothing else. */
  public CompletableFuture<List<StoredJob>> signal(Caller caller, String id, String signal) {
    return act(caller, id, new JobAction() {
      @Override
      public boolean allows(StoredJob j) {
        return j.job().state().holdsResources();
      }

      @Override
      public void apply(Batch b, StoredJob j) {
        lifecycle.signal(b, j, signal, caller.user());
      }
    }, "the job is not running");
  }

  public CompletableFuture<List<StoredJob>> hold(Caller caller, String id) {
    return act(caller, id, new JobAction() {
      @Override
      public boolean allows(StoredJob j) {
        return j.job().state() == JobState.PENDING && !j.held();
      }

      @Override
      public void apply(Batch b, StoredJob j) {
        b.update(j.withJob(j.job().withRequest(j.request().withHold(true))).withReason(HELD, null));
        b.event(j.key(), JobState.PENDING, "held by " + caller.user());
      }
    }, "only pending jobs that are not held can be held");
  }

  public CompletableFuture<List<StoredJob>> release(Caller caller, String id) {
    return act(caller, id, new JobAction() {
      @Override
      public boolean allows(StoredJob j) {
        return j.job().state() == JobState.PENDING && j.held();
      }

      @Override
      public void apply(Batch b, StoredJob j) {
        b.update(j.withJob(j.job().withRequest(j.request().withHold(false))).withReason("None", null));
        b.event(j.key(), JobState.PENDING, "released by " + caller.user());
        b.onCommit(scheduler::wake);
      }
    }, "the job is not held");
  }

  /**
   * scontrol update job: changes a pending job (every pending task of an array named by its id;
   * one task named alone is split off its array first), durably; the scheduler sees it at its next
   * cycle. A job that is no longer pending is refused, as Slurm refuses it.
   */
  public CompletableFuture<List<StoredJob>> update(Caller caller, String id, JobUpdate update) {
    return act(caller, id, new JobAction() {
      @Override
      public boolean allows(StoredJob j) {
        return j.job().state() == JobState.PENDING;
      }

      @Override
      public void apply(Batch b, StoredJob j) {
        b.update(updates.apply(b, j, update, caller));
        b.event(j.key(), JobState.PENDING, "updated by " + caller.user() + ": " + String.join(" ",
            update.fields().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()));
        b.onCommit(scheduler::wake);
      }
    }, "Job is no longer pending execution (only a pending job can be updated)");
  }

  /**
   * squall pause: a running job gets its checkpoint signal and is requeued held once it has
   * checkpointed (or after the partition's checkpoint-wait), releasing its gang; a pending one is
   * held. scontrol release (or squall release) puts it back in the queue.
   */
  public CompletableFuture<List<StoredJob>> pause(Caller caller, String id) {
    return act(caller, id, new JobAction() {
      @Override
      public boolean allows(StoredJob j) {
        return !j.submission().interactive() && ((j.job().state() == JobState.PENDING && !j.held())
            || (j.job().state().holdsResources() && j.ending() == null));
      }

      @Override
      public void apply(Batch b, StoredJob j) {
        if (j.job().state() == JobState.PENDING) {
          b.update(j.withJob(j.job().withRequest(j.request().withHold(true))).withReason(HELD, null));
          b.event(j.key(), JobState.PENDING, "held by " + caller.user() + " (pause)");
        } else {
          b.afterCommit(() -> checkpointed.requeueCheckpointed(j.key(), true, caller.user()));
        }
      }
    }, "only batch jobs that are pending, configuring or running and not being stopped can be paused"
        + " (an interactive allocation ends when its salloc or srun does)");
  }

  /**
   * scontrol requeue: a running job gets its checkpoint signal and is queued again once it has
   * checkpointed (or after the partition's checkpoint-wait); a finished one is queued again.
   */
  public CompletableFuture<List<StoredJob>> requeue(Caller caller, String id) {
    return act(caller, id, new JobAction() {
      @Override
      public boolean allows(StoredJob j) {
        return j.job().state() != JobState.PENDING && j.ending() == null && !j.submission().interactive();
      }

      @Override
      public void apply(Batch b, StoredJob j) {
        if (j.job().state().isFinished()) {
          b.update(j.withJob(j.job().requeued()).withReason("None", null));
          b.event(j.key(), JobState.PENDING, "requeued by " + caller.user());
        } else if (j.job().state() == JobState.RUNNING) {
          b.afterCommit(() -> checkpointed.requeueCheckpointed(j.key(), false, caller.user()));
        } else {
          lifecycle.stop(b, j, JobState.REQUEUED, "requeued by " + caller.user());
        }
        b.onCommit(scheduler::wake);
      }
    }, "the job is pending, already being stopped, or an interactive allocation (only batch jobs are requeued,"
        + " as in Slurm)");
  }

  /**
   * An interactive allocation's client is done with it (Slurm's slurm_complete_job, which salloc
   * and srun call when their command ends): a running one ends COMPLETED, or FAILED with a
   * non-zero exit code, and its nodes are released; one not started yet ends CANCELLED. A batch
   * job ends when its script does, so it is refused.
   *
   * @param exitCode the command's exit code (128+n when it was killed by signal n)
   * @param signal the signal that killed it, or null
   */
  public CompletableFuture<List<StoredJob>> complete(Caller caller, String id, int exitCode, Integer signal) {
    return act(caller, id, new JobAction() {
      @Override
      public boolean allows(StoredJob j) {
        return j.submission().interactive() && !j.job().state().isFinished() && j.ending() == null;
      }

      @Override
      public void apply(Batch b, StoredJob j) {
        if (j.job().state() == JobState.RUNNING) {
          b.event(j.key(), JobState.RUNNING, "relinquished by " + caller.user());
          lifecycle.ended(b, j, exitCode, signal);
        } else {
          lifecycle.stop(b, j, JobState.CANCELLED, "relinquished by " + caller.user() + " before it ran");
        }
      }
    }, "only an interactive allocation (salloc, srun) that has not ended is relinquished; a batch job ends"
        + " when its script does");
  }

  private interface JobAction {
    /** Whether the job's state allows the action. */
    boolean allows(StoredJob job);

    /** Stages the action on a job it allows. */
    void apply(Batch b, StoredJob job);
  }

  /** Runs an action on the job (or every task of an array) the id names, if the caller may. */
  private CompletableFuture<List<StoredJob>> act(Caller caller, String id, JobAction action, String refusal) {
    JobKey key = parseJobId(id);
    return writer.write(b -> {
      List<StoredJob> targets = targets(b, key);
      if (targets.isEmpty()) {
        throw ApiException.notFound("Invalid job id specified: " + id);
      }
      for (StoredJob j : targets) {
        if (!caller.mayControl(j.job().user())) {
          throw new ApiException(HttpStatus.FORBIDDEN, "Access/permission denied: job " + j.key() + " belongs to "
              + j.job().user());
        }
      }
      List<StoredJob> allowed = targets.stream().filter(action::allows).toList();
      if (allowed.isEmpty()) {
        throw ApiException.conflict("job " + id + ": " + refusal);
      }
      List<StoredJob> after = new ArrayList<>();
      for (StoredJob j : allowed) {
        action.apply(b, b.job(j.key()) == null ? ArrayTasks.splitOff(b, j.key()) : j);
        after.add(b.job(j.key()));
      }
      return after;
    });
  }

  /**
   * The jobs an id names: {@code 42} is the job, every task of array 42, or the task whose own job
   * id is 42; {@code 42_3} is one task. A task still in its array's pending remainder is returned
   * as it would be taken off, not yet staged.
   */
  private static List<StoredJob> targets(Batch b, JobKey key) {
    if (key.taskId() == null) {
      return b.jobsNamed(key.id());
    }
    StoredJob task = b.job(key);
    if (task == null) {
      task = ArrayTasks.preview(b, key);
    }
    return task == null ? List.of() : List.of(task);
  }

  /** @throws ApiException 400 unless the id is {@code 42} (a job, an array, or a task by its own id) or {@code 42_3} */
  public static JobKey parseJobId(String id) {
    try {
      return JobKey.parse(id == null ? "" : id);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("Invalid job id specified: " + e.getMessage());
    }
  }
}
