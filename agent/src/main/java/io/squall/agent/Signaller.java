package io.squall.agent;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Delivers signals to processes: TERM and KILL through {@link ProcessHandle}, which checks a
 * process's start time and so never hits a recycled pid, any other signal through kill(1).
 */
final class Signaller {
  private Signaller() {}

  /** Each live root and every live descendant of it, roots first. */
  static Set<ProcessHandle> trees(Collection<ProcessHandle> roots) {
    Set<ProcessHandle> all = new LinkedHashSet<>();
    for (ProcessHandle root : roots) {
      if (root.isAlive()) {
        all.add(root);
      }
      root.descendants().filter(ProcessHandle::isAlive).forEach(all::add);
    }
    return all;
  }

  /** Sends {@code signal} to each process that is still alive; one that has gone is skipped. */
  static void send(Collection<ProcessHandle> targets, PosixSignal signal) {
    List<String> pids = new ArrayList<>();
    for (ProcessHandle h : targets) {
      if (!h.isAlive()) {
        continue;
      }
      if (signal.number() == PosixSignal.TERM.number()) {
        h.destroy();
      } else if (signal.number() == PosixSignal.KILL.number()) {
        h.destroyForcibly();
      } else {
        pids.add(Long.toString(h.pid()));
      }
    }
    if (!pids.isEmpty()) {
      kill(signal, pids);
    }
  }

  /**
   * SIGKILLs whole process groups: it reaches processes whose parent already died (and so are
   * no one's descendants any more). Only for groups of processes started under setsid, whose
   * group id is their own pid; the kernel keeps that id reserved while the group has members.
   */
  static void killGroups(Collection<Long> groupIds) {
    List<String> targets = new ArrayList<>();
    for (long id : groupIds) {
      targets.add("-" + id);
    }
    if (!targets.isEmpty()) {
      kill(PosixSignal.KILL, targets);
    }
  }

  private static void kill(PosixSignal signal, List<String> targets) {
    List<String> command = new ArrayList<>(List.of("kill", "-s", Integer.toString(signal.number()), "--"));
    command.addAll(targets);
    try {
      Process p = new ProcessBuilder(command)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
      // A target that has exited meanwhile makes kill(1) fail; that is not an error here.
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run kill(1) to send SIG" + signal.name() + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
