package io.squall.agent;

import io.squall.agent.Protocol.JobSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One job as this node sees it: what the controller sent, the batch script's process (on the
 * first node of the allocation only) and the srun tasks running here, by step. Thread-safe.
 */
final class NodeJob {
  private final JobSpec spec;
  private volatile Launched batch;
  private final Map<Integer, Set<Launched>> tasks = new ConcurrentHashMap<>();

  NodeJob(JobSpec spec) {
    this.spec = spec;
  }

  JobSpec spec() {
    return spec;
  }

  String key() {
    return spec.job();
  }

  void attachBatch(Launched process) {
    batch = process;
  }

  void addTask(int step, Launched process) {
    tasks.computeIfAbsent(step, s -> ConcurrentHashMap.newKeySet()).add(process);
  }

  void removeTask(int step, Launched process) {
    tasks.computeIfPresent(step, (s, set) -> {
      set.remove(process);
      return set.isEmpty() ? null : set;
    });
  }

  /** Whether the batch script or any task still runs: what {@code running} reports. */
  boolean hasLiveProcesses() {
    return roots(null).stream().anyMatch(ProcessHandle::isAlive);
  }

  /** Signals the batch script's whole tree and every task's tree; answers whom it signalled. */
  Set<ProcessHandle> signal(PosixSignal signal) {
    Set<ProcessHandle> targets = Signaller.trees(roots(null));
    Signaller.send(targets, signal);
    return targets;
  }

  /** Signals the trees of one step's tasks, or of every step's when {@code step} is null. */
  void signalTasks(Integer step, PosixSignal signal) {
    Signaller.send(Signaller.trees(taskRoots(step)), signal);
  }

  /**
   * SIGKILLs everything of the job on this node: {@code alsoThese} (processes seen earlier, which
   * may have lost their parent since), the current trees and the processes' whole groups.
   */
  void killAll(Collection<ProcessHandle> alsoThese) {
    List<ProcessHandle> roots = roots(null);
    Set<ProcessHandle> targets = Signaller.trees(roots);
    targets.addAll(alsoThese);
    Signaller.send(targets, PosixSignal.KILL);
    Signaller.killGroups(groups(null));
  }

  /** SIGKILLs one step's tasks and their groups: srun, which owned them, is gone. */
  void killStep(int step) {
    Signaller.send(Signaller.trees(taskRoots(step)), PosixSignal.KILL);
    Signaller.killGroups(groups(step));
  }

  private List<ProcessHandle> roots(Integer step) {
    List<ProcessHandle> roots = new ArrayList<>();
    Launched b = batch;
    if (b != null && step == null) {
      roots.add(b.handle());
    }
    roots.addAll(taskRoots(step));
    return roots;
  }

  private List<ProcessHandle> taskRoots(Integer step) {
    List<ProcessHandle> roots = new ArrayList<>();
    tasks.forEach((s, set) -> {
      if (step == null || step.equals(s)) {
        set.forEach(l -> roots.add(l.handle()));
      }
    });
    return roots;
  }

  /**
   * The process groups led by live processes. A group whose leader has ended was already killed
   * when it ended (see {@link #endGroup}); its id may since name someone else's group.
   */
  private List<Long> groups(Integer step) {
    List<Long> groups = new ArrayList<>();
    Launched b = batch;
    if (b != null && step == null && b.ownSession() && b.process().isAlive()) {
      groups.add(b.handle().pid());
    }
    tasks.forEach((s, set) -> {
      if (step == null || step.equals(s)) {
        set.stream().filter(l -> l.ownSession() && l.process().isAlive()).forEach(l -> groups.add(l.handle().pid()));
      }
    });
    return groups;
  }

  /**
   * Kills what is left in an ended process's group, as Slurm does when a job or step ends: a
   * script's background processes do not outlive it. Called right after the process was reaped,
   * while its remaining group members still keep the group id reserved.
   */
  static void endGroup(Launched ended) {
    if (ended.ownSession()) {
      Signaller.killGroups(List.of(ended.handle().pid()));
    }
  }
}
