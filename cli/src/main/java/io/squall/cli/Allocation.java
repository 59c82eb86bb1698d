package io.squall.cli;

import io.squall.cli.service.JobInfo;
import io.squall.cli.service.ServiceException;
import io.squall.cli.service.ServiceUnreachableException;
import io.squall.cli.service.SquallClient;
import io.squall.cli.service.Submission;
import io.squall.cli.service.SubmitResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An interactive allocation this client asked for (salloc, or srun outside a job): submitted
 * without a script, waited for with Slurm's messages, and relinquished when the command is done.
 *
 * <p>A client stopped by SIGINT, SIGTERM or SIGHUP gives the allocation back on its way out (a
 * shutdown hook): cancelled, as Slurm's srun and salloc do. A client killed with SIGKILL cannot; its
 * allocation then lasts until its time limit or scancel, as Slurm's does with its default
 * {@code InactiveLimit=0}.
 */
final class Allocation {
  /** How soon the first look: a job the scheduler can start at once is running by then. */
  private static final Duration FIRST_LOOK = Duration.ofMillis(250);
  private static final Duration LONGEST_PAUSE = Duration.ofSeconds(2);

  private final ServiceVerb verb;
  private final SquallClient client;
  private final String id;
  private final AtomicBoolean done = new AtomicBoolean();
  private final Thread giveBack;
  private volatile boolean running;
  private JobInfo job;

  private Allocation(ServiceVerb verb, SquallClient client, String id) {
    this.verb = verb;
    this.client = client;
    this.id = id;
    this.giveBack = new Thread(this::cancelOnExit, verb.verb() + "-relinquish");
    Runtime.getRuntime().addShutdownHook(giveBack);
  }

  /**
   * Submits the allocation.
   *
   * @param options sbatch's options as typed
   * @param name the job's name unless {@code -J} says otherwise
   * @throws ServiceException when the service refuses it (unknown partition, a request no
   *     partition can hold, ...)
   */
  static Allocation submit(ServiceVerb verb, Invocation io, List<String> options, String name) {
    SquallClient client = verb.client();
    Map<String, String> env = new TreeMap<>(io.env());
    // The token is the client's, not the job's; sbatch's input variables are sbatch's alone.
    env.remove("SQUALL_TOKEN");
    env.keySet().removeIf(k -> k.startsWith("SBATCH_"));
    SubmitResult r = client.submit(new Submission(null, options, io.cwd().toString(), name, env, List.of(), null,
        true));
    r.warnings().forEach(verb::warning);
    return new Allocation(verb, client, r.jobId());
  }

  /** What runs in an allocation once it has started; its status is what the allocation ends with. */
  @FunctionalInterface
  interface Use {
    int run(Allocation allocation) throws InterruptedException;
  }

  /**
   * Allocates, waits until the allocation runs, runs {@code use} in it, and relinquishes it with
   * use's status, whatever happens.
   *
   * @param salloc whether salloc asks (it says {@code Granted} and {@code Relinquishing}), else srun
   * @param refused how the verb begins a refusal ({@code Job submit/allocate failed}, {@code Unable
   *     to allocate resources})
   * @return use's status; 1 when the service refused the allocation or it ended before it ran
   */
  static int use(ServiceVerb verb, Invocation io, List<String> options, String name, boolean salloc, String refused,
      Use use) {
    Allocation allocation;
    try {
      allocation = submit(verb, io, options, name);
    } catch (ServiceException e) {
      if (e.status() == 400 || e.status() == 403) {
        verb.error(refused + ": " + e.getMessage());
        return 1;
      }
      throw e;
    }
    int status = 1;
    try {
      if (!allocation.awaitStart(io.sleeper(), salloc)) {
        return 1;
      }
      status = use.run(allocation);
      return status;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    } finally {
      allocation.relinquish(status, salloc);
    }
  }

  String id() {
    return id;
  }

  JobInfo job() {
    return job;
  }

  /**
   * Waits until the allocation runs, saying what Slurm's tools say while it waits.
   *
   * @param granted whether to say {@code Granted job allocation N} (salloc does, srun does not)
   * @return false when it ended before it ran (cancelled, or refused by a limit): the caller exits 1
   */
  boolean awaitStart(Sleeper sleeper, boolean granted) throws InterruptedException {
    if (granted) {
      verb.io.err().println(verb.verb() + ": Pending job allocation " + id);
    }
    Duration pause = FIRST_LOOK;
    boolean said = false;
    boolean configuring = false;
    boolean unreachableSaid = false;
    while (true) {
      sleeper.sleep(pause);
      pause = pause.multipliedBy(2).compareTo(LONGEST_PAUSE) > 0 ? LONGEST_PAUSE : pause.multipliedBy(2);
      try {
        job = client.job(id);
      } catch (ServiceUnreachableException e) {
        // As sbatch --wait: a service away for a moment does not end the wait.
        if (!unreachableSaid) {
          unreachableSaid = true;
          verb.error(e.getMessage() + "; still waiting for job allocation " + id);
        }
        continue;
      }
      String state = job.state();
      if ("RUNNING".equals(state)) {
        if (said) {
          verb.io.err().println(verb.verb() + ": job " + id + " has been allocated resources");
        }
        if (granted) {
          verb.io.err().println(verb.verb() + ": Granted job allocation " + id);
        }
        if (configuring) {
          verb.io.err().println(verb.verb() + ": Nodes " + job.nodes() + " are ready for job");
        }
        running = true;
        return true;
      }
      if ("CONFIGURING".equals(state) && !configuring) {
        configuring = true;
        verb.io.err().println(verb.verb() + ": Waiting for resource configuration");
      } else if ("PENDING".equals(state) && !said) {
        said = true;
        verb.io.err().println(verb.verb() + ": job " + id + " queued and waiting for resources");
      } else if (!"PENDING".equals(state) && !"CONFIGURING".equals(state)) {
        done.set(true);
        verb.io.err().println(verb.verb() + ": error: Job allocation " + id + " has been revoked"
            + (job.reason() == null || job.reason().equals("None") ? "" : " (" + job.reason() + ")"));
        return false;
      }
    }
  }

  /** The allocation's environment ({@code SLURM_JOB_ID}, {@code SLURM_JOB_NODELIST}, ...). */
  Map<String, String> environment() {
    return client.allocationEnvironment(id);
  }

  /**
   * Gives the allocation back: it ends COMPLETED (FAILED for a non-zero exit code). An allocation
   * that has ended meanwhile (scancel, time limit) is left as it is.
   *
   * @param exitCode the command's exit status (129 to 192: killed by signal status−128)
   */
  void relinquish(int exitCode, boolean say) {
    if (!done.compareAndSet(false, true)) {
      return;
    }
    forgetHook();
    if (say) {
      verb.io.err().println(verb.verb() + ": Relinquishing job allocation " + id);
    }
    Integer signal = exitCode > 128 && exitCode <= 192 ? exitCode - 128 : null;
    try {
      client.complete(id, exitCode, signal);
    } catch (ServiceUnreachableException e) {
      verb.error("cannot relinquish job allocation " + id + ": " + e.getMessage() + "; it lasts until its time"
          + " limit unless 'scancel " + id + "' gives it back");
    } catch (ServiceException e) {
      if (e.status() == 409) {
        JobInfo ended = client.job(id);
        verb.io.err().println(verb.verb() + ": Job allocation " + id + " has been revoked ("
            + ended.state() + (ended.reason() == null || ended.reason().equals("None") ? "" : ": " + ended.reason())
            + ")");
        return;
      }
      throw e;
    }
  }

  /** Its state now, as the service has it. */
  String currentState() {
    return client.job(id).state();
  }

  /**
   * The allocation ended without this client (scancel, time limit): nothing is left to give back.
   *
   * @return false when this client has already given it back (or is doing so)
   */
  boolean revoked() {
    if (!done.compareAndSet(false, true)) {
      return false;
    }
    forgetHook();
    return true;
  }

  /** Whether it ran: a step may start in it. */
  boolean running() {
    return running;
  }

  private void forgetHook() {
    try {
      Runtime.getRuntime().removeShutdownHook(giveBack);
    } catch (IllegalStateException e) {
      // Already shutting down: the hook runs and finds the allocation done.
    }
  }

  private void cancelOnExit() {
    if (!done.compareAndSet(false, true)) {
      return;
    }
    try {
      client.cancel(id, null);
      verb.io.err().println(verb.verb() + ": Job allocation " + id + " has been revoked.");
    } catch (RuntimeException e) {
      verb.io.err().println(verb.verb() + ": error: cannot cancel job allocation " + id + ": " + e.getMessage());
    }
  }
}
