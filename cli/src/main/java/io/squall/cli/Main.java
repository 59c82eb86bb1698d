package io.squall.cli;

import java.util.Arrays;
import java.util.List;

/** The single entry point behind {@code bin/squall}: dispatches to one command per verb. */
public final class Main {
  private static final String USAGE = """
      usage: squall COMMAND [ARGS...]
        sbatch [OPTIONS] SCRIPT [ARGS...]       submit a batch script (--parsable, --test-only, --wrap=CMD,
                                                --wait: until it ends, exiting with its exit code)
        sbatch --parse-only FILE [OPTIONS...]   validate a batch script, print the request as JSON
        salloc [OPTIONS] [COMMAND [ARGS...]]    allocate, run COMMAND (default $SHELL) here with the
                                                allocation's SLURM_* environment, relinquish
        srun [OPTIONS] COMMAND [ARGS...]        a step: in the allocation of $SLURM_JOB_ID, else in an
                                                allocation of its own (relinquished at the end)
        squeue [-u USER] [-p PART] [-t STATES] [-j JOBS] [-o FORMAT] [-h] [--me]
                                                list queued and running jobs
        scancel [-s SIGNAL] [-u USER] [-t STATE] [-p PART] [-n NAME] [JOBID...]
                                                cancel or signal jobs
        sinfo [-N] [-p PART] [-o FORMAT] [-h]   partitions and node states
        sacct [-j JOBS] [-S TIME] [-E TIME] [-o FIELDS] [-P] [-n]
                                                jobs that ran
        sshare [-a] [-A ACCOUNTS] [-u USERS] [-U] [-l] [-n] [-p|-P]
                                                fair-share: shares, usage and factors
        scontrol show job|node|partition [NAME], show hostnames [LIST], hold|release|requeue JOBID...,
                 update JobId=ID FIELD=VALUE..., update NodeName=NODES State=DRAIN|RESUME [Reason=TEXT]
        sprio [-j JOBS] [-u USERS] [-p PART] [-l] [-n] [-w] [-o FORMAT] [-h]
                                                pending jobs' priority factors
        pause JOBID...                          checkpoint a running job, release its nodes, keep it held
        report cost [--since T] [--until T] [--account A] [--by user|account|partition|day]
                    [--format table|csv|json]   what jobs cost, with what spot saved (chargeback)
        bench scheduler [--nodes N] [--gpus-per-node G] [--pending P] [--seed S] [--cycles C]
                                                run full scheduling cycles on a synthetic cluster
        bench api [--jobs N] [--clients C] [--server-pid PID]
                                                held-job submissions per second through a running service's
                                                HTTP API, as rest-bench.py measures them (server CPU per job)
        bench cli [--calls N] [--bin DIR]       each Slurm verb's time as a command (launcher and JVM too)
                                                against a running service: median and p90
        bench elastic [--pending P] [--nodes N] [--seed S] [--scheduler-interval SECS] [--on-demand-after SECS]
                                                an elastic partition's launches and idle time, in virtual time
        bench interruptions [--jobs N] [--nodes N] [--interruptions-per-hour R] [--seed S]
                                                work lost to spot interruptions with and without the
                                                checkpoint signal, in virtual time
        server                                  start the controller (embedded defaults: H2, 4 local nodes)
        hash-token [--bcrypt] < TOKEN           print a token's hash (sha256:HEX or bcrypt) for token-hash
        node-token NODE < AGENT_SECRET          print a node's own agent token (squall-node:NODE:MAC)
      The Slurm verbs talk to the service at $SQUALL_URL (default http://127.0.0.1:6820) with the token
      in $SQUALL_TOKEN, or 'url = ...' and 'token = ...' in $SQUALL_CONFIG (default ~/.config/squall/config).
      An https:// service's certificate is checked against the CA in $SQUALL_CA_FILE ('ca-file = ...'),
      else the JDK's trusted CAs.
      Each verb takes --help.""";

  private Main() {}

  public static void main(String[] args) {
    int status = run(Arrays.asList(args), Invocation.system());
    HttpClientThreads.stop();
    System.exit(status);
  }

  /**
   * Runs a verb. An error no verb expected is a bug, but a user still gets one line, not a Java
   * stack trace; {@code SQUALL_DEBUG=1} shows the trace.
   */
  static int run(List<String> args, Invocation io) {
    try {
      return dispatch(args, io);
    } catch (RuntimeException e) {
      io.err().println("squall: internal error: " + e + " (set SQUALL_DEBUG=1 for the stack trace)");
      if (io.env().get("SQUALL_DEBUG") != null) {
        e.printStackTrace(io.err());
      }
      return 1;
    }
  }

  private static int dispatch(List<String> args, Invocation io) {
    if (args.isEmpty()) {
      io.err().println(USAGE);
      return 2;
    }
    List<String> rest = args.subList(1, args.size());
    switch (args.get(0)) {
      case "sbatch":
        return new SbatchCommand(io).run(rest);
      case "salloc":
        return new SallocCommand(io).run(rest);
      case "srun":
        return new SrunCommand(io).run(rest);
      case "squeue":
        return new SqueueCommand(io).run(rest);
      case "scancel":
        return new ScancelCommand(io).run(rest);
      case "sinfo":
        return new SinfoCommand(io).run(rest);
      case "sacct":
        return new SacctCommand(io).run(rest);
      case "scontrol":
        return new ScontrolCommand(io).run(rest);
      case "sshare":
        return new SshareCommand(io).run(rest);
      case "sprio":
        return new SprioCommand(io).run(rest);
      case "pause":
        return ScontrolCommand.pause(io).run(rest);
      case "report":
        return new ReportCommand(io).run(rest);
      case "hash-token":
        return new HashTokenCommand(io).run(rest);
      case "node-token":
        return new NodeTokenCommand(io).run(rest);
      case "bench":
        try {
          return BenchCommand.run(rest, io);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return 1;
        }
      case "help":
      case "--help":
      case "-h":
        io.out().println(USAGE);
        return 0;
      default:
        io.err().println("squall: unknown command '" + args.get(0) + "'\n" + USAGE);
        return 2;
    }
  }
}
