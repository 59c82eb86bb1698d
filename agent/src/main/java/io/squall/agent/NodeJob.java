package io.squall.agent;

import io.squall.agent.Protocol.JobSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One job as this node sees it: what the controller sent, the batch script's process (on the
 * first node of the allocation only) and the srun tasks running here, by step. Thread-safe.
 */
final class NodeJob {
  private final JobSpec spec;
  private final BatchSlot batch;
  private final Map<Integer, Set<Launched>> tasks = new ConcurrentHashMap<>();

  NodeJob(JobSpec spec) {
    this.spec = spec;
    this.batch = new BatchSlot(spec.batch());
  }

  JobSpec spec() {
    return spec;
  }

  String key() {
    return spec.job();
  }

  /**
   * The batch script has started. False when the job was deleted while it started: the script
   * has then been killed here, as the delete would have done.
   */
  boolean attachBatch(Launched process) {
    if (batch.fill(process)) {
      return true;
    }
    kill(List.of(process), Set.of());
    return false;
  }

  /** The batch script could not be started. */
  void batchFailed() {
    batch.failed();
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

  /**
   * Signals the batch script's whole tree and every task's tree; answers whom it signalled. A
   * script that is still starting gets the signal once it has started (and only then).
   */
  Set<ProcessHandle> signal(PosixSignal signal) {
    boolean held = batch.holdIfStarting(signal, false);
    Set<ProcessHandle> targets = Signaller.trees(handles(held ? taskProcesses(null) : launched()));
    Signaller.send(targets, signal);
    return targets;
  }

  /**
   * Signals the batch script's own process alone, not its children nor any task: Slurm's {@code
   * --signal=B:SIG}, which lets a script's trap decide what its children get. Answers whom it
   * signalled: nobody on a node without the script, or while it is still starting (it then gets
   * the signal once it has started).
   */
  Set<ProcessHandle> signalBatchShell(PosixSignal signal) {
    if (batch.holdIfStarting(signal, true)) {
      return Set.of();
    }
    Launched script = batch.script();
    if (script == null || !script.process().isAlive()) {
      return Set.of();
    }
    Signaller.send(List.of(script.handle()), signal);
    return Set.of(script.handle());
  }

  /** Signals the trees of one step's tasks, or of every step's when {@code step} is null. */
  void signalTasks(Integer step, PosixSignal signal) {
    Signaller.send(Signaller.trees(handles(taskProcesses(step))), signal);
  }

  /**
   * SIGKILLs everything of the job on this node: {@code alsoThese} (processes seen earlier, which
   * may have lost their parent since), the current trees and the processes' whole groups.
   */
  void killAll(Collection<ProcessHandle> alsoThese) {
    kill(launched(), alsoThese);
  }

  /** The controller deleted the job: kills it, including a batch script that is still starting. */
  void delete() {
    batch.delete();
    killAll(Set.of());
  }

  /**
   * Whether a process launched for the job here (its batch script, a task) is still alive, or its
   * batch script is still starting (a deleted job's is killed as it comes in).
   */
  boolean anyAlive() {
    return batch.starting() || launched().stream().anyMatch(l -> l.process().isAlive());
  }

  /**
   * Waits, at most {@code patience}, for every process launched for the job here to exit (after
   * {@link #delete}, which SIGKILLs them, that takes milliseconds unless one is stuck in the
   * kernel); answers whether nothing of the job is left, as {@link #anyAlive} says.
   */
  boolean awaitGone(Duration patience) {
    long deadline = System.nanoTime() + patience.toNanos();
    for (Launched l : launched()) {
      try {
        l.process().onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return !anyAlive();
  }

  /** SIGKILLs one step's tasks and their groups: srun, which owned them, is gone. */
  void killStep(int step) {
    kill(taskProcesses(step), Set.of());
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

  private static void kill(List<Launched> processes, Collection<ProcessHandle> alsoThese) {
    // Groups first: once its leader is dead, a group no longer counts as one of the job's.
    List<Long> groups = groups(processes);
    Set<ProcessHandle> targets = Signaller.trees(handles(processes));
    targets.addAll(alsoThese);
    Signaller.send(targets, PosixSignal.KILL);
    Signaller.killGroups(groups);
  }

  /** The batch script, once it has started, and every task. */
  private List<Launched> launched() {
    List<Launched> all = new ArrayList<>();
    Launched b = batch.script();
    if (b != null) {
      all.add(b);
    }
    all.addAll(taskProcesses(null));
    return all;
  }

  /** The tasks of one step, or of every step when {@code step} is null. */
  private List<Launched> taskProcesses(Integer step) {
    List<Launched> all = new ArrayList<>();
    tasks.forEach((s, set) -> {
      if (step == null || step.equals(s)) {
        all.addAll(set);
      }
    });
    return all;
  }

  private static List<ProcessHandle> handles(List<Launched> processes) {
    List<ProcessHandle> handles = new ArrayList<>();
    processes.forEach(l -> handles.add(l.handle()));
    return handles;
  }

  /**
   * The process groups led by live processes. A group whose leader has ended was already killed
   * when it ended (see {@link #endGroup}); its id may since name someone else's group.
   */
  private static List<Long> groups(List<Launched> processes) {
    List<Long> groups = new ArrayList<>();
    processes.stream().filter(l -> l.ownSession() && l.process().isAlive()).forEach(l -> groups.add(l.handle().pid()));
    return groups;
  }
}
