package io.squall.agent;

import io.squall.agent.BatchLauncher.BatchRun;
import io.squall.agent.BatchLauncher.LaunchFailure;
import io.squall.agent.Protocol.ExitEvent;
import io.squall.agent.Protocol.JobSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the controller asks of this node's jobs: launch, signal, delete. Calls return quickly
 * (they run on the agent's HTTP threads; a delete waits at most {@link #DELETE_PATIENCE} for the
 * processes it killed) and never call the controller back themselves: the controller may be
 * waiting on the answer while holding what such a call would need.
 */
final class JobControl {
  /** How long a delete waits for the killed processes to exit before it answers. */
  static final Duration DELETE_PATIENCE = Duration.ofSeconds(2);
  private final JobTable table;
  private final BatchLauncher launcher;
  private final OutputShipping shipping;
  private final EventOutbox outbox;
  private final ScheduledExecutorService timers;
  private final ExecutorService workers;
  private final Path jobsDir;
  private final InstantSource clock;
  private final AgentLog log;

  JobControl(JobTable table, BatchLauncher launcher, OutputShipping shipping, EventOutbox outbox,
      ScheduledExecutorService timers, ExecutorService workers, Path jobsDir, InstantSource clock, AgentLog log) {
    this.table = table;
    this.launcher = launcher;
    this.shipping = shipping;
    this.outbox = outbox;
    this.timers = timers;
    this.workers = workers;
    this.jobsDir = jobsDir;
    this.clock = clock;
    this.log = log;
  }

  /**
   * Takes a job onto this node; idempotent per job key. The first node's batch script starts
   * now; other nodes only hold the job (credential, GPUs, peers) so srun tasks are accepted. A
   * script that cannot start is reported as an exit with code 1.
   *
   * @throws JobTable.Closed once the agent has begun to stop
   */
  void launch(JobSpec spec) {
    Optional<NodeJob> fresh = table.addIfAbsent(spec);
    if (fresh.isEmpty()) {
      return;
    }
    NodeJob job = fresh.get();
    if (!spec.batch()) {
      log.info("job " + spec.job() + ": holding its allocation here for srun tasks");
      return;
    }
    try {
      BatchRun run = launcher.start(spec);
      // Followed before it is attached: a delete that comes after the attach then finds the files.
      OutputShipping.Followed output = shipping.follow(spec.job(), run.stdout(), run.stderr());
      if (!job.attachBatch(run.launched())) {
        shipping.forget(output);
        if (table.get(spec.job()).isEmpty()) {
          removeDirectory(jobsDir.resolve(spec.job()));
        }
        log.info("job " + spec.job() + ": deleted while its batch script started; killed it");
        return;
      }
      log.info("job " + spec.job() + ": batch script started as pid " + run.launched().handle().pid());
      run.launched().process().onExit()
          .thenAcceptAsync(p -> batchEnded(job, run, output, p.exitValue()), workers);
    } catch (LaunchFailure | RuntimeException e) {
      job.batchFailed();
      // Reported as an exit rather than refused: the job is in the table, so a refused launch
      // could never be retried here; the reason is in the agent's log.
      log.warn("job " + spec.job() + ": " + e.getMessage() + "; the job fails with exit code 1");
      if (isCurrent(job)) {
        report(job, ExitStatus.LAUNCH_FAILED, clock.instant());
      }
    }
  }

  Optional<NodeJob> job(String key) {
    return table.get(key);
  }

  /**
   * Signals every process of the job here, or with {@code batchOnly} the batch script's shell
   * alone (Slurm's {@code --signal=B:}); with {@code killWaitSeconds} > 0, whatever of the job is
   * still alive that much later gets SIGKILL (a timer, not a wait on the caller's thread). Unknown
   * jobs are ignored: there is nothing of them to signal.
   */
  void signal(String key, PosixSignal signal, int killWaitSeconds, boolean batchOnly) {
    Optional<NodeJob> found = table.get(key);
    if (found.isEmpty()) {
      return;
    }
    NodeJob job = found.get();
    Set<ProcessHandle> signalled = batchOnly ? job.signalBatchShell(signal) : job.signal(signal);
    log.info("job " + key + ": SIG" + signal.name() + " to "
        + (batchOnly ? "the batch shell alone" : signalled.size() + " processes")
        + (killWaitSeconds > 0 ? ", SIGKILL in " + killWaitSeconds + " s" : ""));
    if (killWaitSeconds > 0 && signal.number() != PosixSignal.KILL.number()) {
      try {
        timers.schedule(() -> job.killAll(signalled), killWaitSeconds, TimeUnit.SECONDS);
      } catch (RejectedExecutionException e) {
        job.killAll(signalled);
      }
    }
  }

  /**
   * The job's run {@code run} (null: whichever is held) is over: kills whatever is left of it here
   * and forgets it, and a launch of that run coming later is refused. Idempotent. Answers whether
   * nothing of it is left: its processes exited within {@code patience}; until they have, the job
   * is still listed as held, so the controller does not start its next run elsewhere.
   */
  boolean delete(String key, Integer run, Duration patience) {
    Optional<NodeJob> found = table.remove(key, run);
    if (found.isEmpty()) {
      return !table.dying(key);
    }
    NodeJob job = found.get();
    job.delete();
    shipping.forget(key);
    removeDirectory(jobsDir.resolve(key));
    boolean gone = job.awaitGone(patience);
    log.info("job " + key + ": deleted" + (gone ? "" : "; some of its processes have not exited yet"));
    return gone;
  }

  /** The jobs this node holds (see {@link JobTable#held}). */
  List<String> held() {
    return table.held();
  }

  /**
   * Kills every job's processes: the node is going away (the agent is stopped). From now on
   * launches are refused, and a batch script still starting is killed as it comes in (as after a
   * delete), so no job's process outlives the agent.
   */
  void killEverything() {
    table.close().forEach(NodeJob::delete);
  }

  private void batchEnded(NodeJob job, BatchRun run, OutputShipping.Followed output, int waitStatus) {
    Instant at = clock.instant();
    NodeJob.endGroup(run.launched());
    ExitStatus status = ExitStatus.fromWaitStatus(waitStatus);
    if (!isCurrent(job)) {
      // Deleted: the controller is done with this run, and an exit reported now would be taken
      // for a later run of the same key. Its output's last pass is the delete's.
      log.info("job " + job.key() + ": batch script of a deleted run ended with exit code " + status.exitCode());
      return;
    }
    log.info("job " + job.key() + ": batch script ended with exit code " + status.exitCode()
        + (status.signal() == null ? "" : " (signal " + status.signal() + ")"));
    // Output first: whoever sees the job end should find its output complete.
    shipping.ended(output);
    report(job, status, at);
  }

  /** Whether the job is still the table's under its key: neither deleted nor replaced by a new run. */
  private boolean isCurrent(NodeJob job) {
    return table.get(job.key()).orElse(null) == job;
  }

  private void report(NodeJob job, ExitStatus status, Instant at) {
    outbox.add(new ExitEvent(UUID.randomUUID().toString(), job.key(), "exit", status.exitCode(), status.signal(),
        at.toString()));
  }

  private void removeDirectory(Path dir) {
    try {
      JobFiles.removeTree(dir);
    } catch (IOException e) {
      log.warn("cannot remove " + dir + ": " + e);
    }
  }
}
