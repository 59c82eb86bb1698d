package io.squall.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * {@code squall salloc [OPTIONS] [COMMAND [ARGS...]]}: asks for an interactive allocation
 * (sbatch's options), waits until it runs, runs the command here (by default the user's
 * {@code $SHELL}) with the allocation's {@code SLURM_*} environment, so that {@code srun} in it
 * starts steps on the allocated nodes, then relinquishes the allocation and exits with the
 * command's exit status, as Slurm's salloc does. While the command runs salloc ignores SIGINT, as
 * salloc does: Ctrl-C is the command's.
 */
final class SallocCommand extends ServiceVerb {
  static final String USAGE = """
      Usage: salloc [-N NODES] [-n TASKS] [--gres=gpu:N] [-p PART] [-t TIME] [-J NAME] [...] [COMMAND [ARGS...]]
      Allocates, runs COMMAND (default: $SHELL) here with the allocation's SLURM_* environment (srun in it
      starts steps on the allocated nodes), then relinquishes the allocation. Any sbatch option shapes it.""";

  /** How often salloc asks whether its allocation still runs while its command does. */
  static final java.time.Duration WATCH_PAUSE = java.time.Duration.ofSeconds(2);

  SallocCommand(Invocation io) {
    super("salloc", io);
  }

  int run(List<String> args) {
    if (args.size() == 1 && (args.get(0).equals("--help") || args.get(0).equals("--usage"))) {
      io.out().println(USAGE);
      return 0;
    }
    return guarded(() -> {
      InteractiveLine line = InteractiveLine.parse(args, false);
      List<String> command = new ArrayList<>(line.command());
      if (command.isEmpty()) {
        String shell = io.env().get("SHELL");
        command.add(shell == null || shell.isBlank() ? "/bin/sh" : shell);
      }
      String name = line.command().isEmpty() ? "interactive" : Path.of(command.get(0)).getFileName().toString();
      return Allocation.use(this, io, line.options(), name, true, "Job submit/allocate failed",
          allocation -> runCommand(command, allocation));
    });
  }

  private int runCommand(List<String> command, Allocation allocation) throws InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(io.cwd().toFile()).inheritIO();
    builder.environment().clear();
    builder.environment().putAll(io.env());
    builder.environment().putAll(allocation.environment());
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      error("cannot run " + command.get(0) + ": " + e.getMessage());
      return 1;
    }
    SignalHandler before = ignoreInterrupts();
    Thread watch = new Thread(() -> watch(allocation, process), "salloc-watch");
    watch.setDaemon(true);
    watch.start();
    try {
      return process.waitFor();
    } finally {
      watch.interrupt();
      restoreInterrupts(before);
    }
  }

  /**
   * Ends the command when the allocation ends under it (scancel, time limit), as salloc does: it
   * says so and sends the command SIGHUP. The service is asked every {@link #WATCH_PAUSE}.
   */
  private void watch(Allocation allocation, Process command) {
    try {
      while (command.isAlive()) {
        io.sleeper().sleep(WATCH_PAUSE);
        String state;
        try {
          state = allocation.currentState();
        } catch (RuntimeException e) {
          continue; // the service is unreachable for a moment: the allocation is as it was
        }
        if (!state.equals("RUNNING") && !state.equals("CONFIGURING") && allocation.revoked()) {
          io.err().println(state.equals("TIMEOUT")
              ? "salloc: Job " + allocation.id() + " has exceeded its time limit and its allocation has been revoked."
              : "salloc: Job allocation " + allocation.id() + " has been revoked.");
          hangUp(command);
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void hangUp(Process command) {
    try {
      new ProcessBuilder("kill", "-HUP", Long.toString(command.pid())).inheritIO().start().waitFor();
    } catch (IOException e) {
      command.destroy();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Ctrl-C reaches the command (same process group) and must not end salloc under it. */
  private static SignalHandler ignoreInterrupts() {
    try {
      return Signal.handle(new Signal("INT"), s -> { });
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static void restoreInterrupts(SignalHandler before) {
    if (before != null) {
      try {
        Signal.handle(new Signal("INT"), before);
      } catch (IllegalArgumentException e) {
        // Left ignored: salloc is about to exit anyway.
      }
    }
  }
}
