package io.squall.agent;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a job's batch script goes once it has started. Launch starts the script outside any lock
 * (it writes files and forks), so the controller's DELETE or signal can come while it starts:
 * a delete makes the slot refuse the script, which the caller then kills; a signal waits here and
 * reaches the script (its whole tree, or its shell alone) as soon as it is in, before any later
 * signal. Thread-safe.
 */
final class BatchSlot {
  private Launched script;
  /** A script is on its way: launch has not yet filled the slot nor given up. */
  private boolean starting;
  private boolean deleted;
  private final List<Held> early = new ArrayList<>();

  /** A signal that came while the script started; {@code shellOnly} for Slurm's {@code --signal=B:}. */
  private record Held(PosixSignal signal, boolean shellOnly) {}

  BatchSlot(boolean starting) {
    this.starting = starting;
  }

  /** The script, or null before it has started (and on every node but the first). */
  synchronized Launched script() {
    return script;
  }

  /**
   * Takes the started script and sends it the signals that came first. False when the job was
   * deleted meanwhile: the script is not taken, and must be killed.
   */
  synchronized boolean fill(Launched started) {
    starting = false;
    if (deleted) {
      return false;
    }
    script = started;
    // Under the lock: a signal that comes now must wait until these are out, to keep the order.
    for (Held held : early) {
      List<ProcessHandle> shell = List.of(started.handle());
      Signaller.send(held.shellOnly() ? shell : Signaller.trees(shell), held.signal());
    }
    early.clear();
    return true;
  }

  /** The script did not start: signals held for it have nowhere to go. */
  synchronized void failed() {
    starting = false;
    early.clear();
  }

  /**
   * Keeps a signal for a script that is still starting, for its whole tree or ({@code shellOnly})
   * its shell alone; answers whether it did.
   */
  synchronized boolean holdIfStarting(PosixSignal signal, boolean shellOnly) {
    if (starting) {
      early.add(new Held(signal, shellOnly));
    }
    return starting;
  }

  /** Whether a script is on its way (it may be running already, not yet in the slot). */
  synchronized boolean starting() {
    return starting;
  }

  /** The job is deleted: a script still starting is refused when it arrives. */
  synchronized void delete() {
    deleted = true;
  }
}
