package io.squall.core.schedule;

import io.squall.core.model.Job;
import io.squall.core.model.JobState;
import io.squall.core.sbatch.Dependency;
import io.squall.core.sbatch.Dependency.Condition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates {@code --dependency} against the jobs of the snapshot. A job id refers to a plain
 * job or to every task of an array (its waiting remainder included), else to the array task whose
 * own job id it is (a script's {@code afterok:$SLURM_JOB_ID}); {@code id_task} to one task. A job
 * the snapshot does not know can never satisfy a condition.
 */
final class DependencyCheck {
  /** Satisfied, still waiting, or impossible (Slurm's DependencyNeverSatisfied). */
  enum Outcome { SATISFIED, WAITING, NEVER }

  /**
   * The jobs by id (an array's under its id, a task also under its own), and by name and user:
   * each built when a dependency first needs it (most cycles have none). Job ids are never reused,
   * so a task's own id, unless it is its array's, names nothing else.
   */
  private Map<Long, List<Job>> byId;
  private Map<String, List<Job>> byNameAndUser;
  private final List<Job> jobs;
  private final Instant now;

  DependencyCheck(List<Job> jobs, Instant now) {
    this.jobs = jobs;
    this.now = now;
  }

  private static String nameAndUser(Job j) {
    return j.request().jobName() + '\u0000' + j.user();
  }

  /** Whether the outcome can differ between tasks of an array ({@code aftercorr}). */
  static boolean dependsPerTask(Job job) {
    Dependency d = job.request().control().dependency();
    return d != null && d.conditions().stream().anyMatch(c -> c.type() == Dependency.Type.AFTERCORR);
  }

  /** @param task the array task being considered, or null */
  Outcome check(Job job, Integer task) {
    Dependency d = job.request().control().dependency();
    if (d == null) {
      return Outcome.SATISFIED;
    }
    boolean anyWaiting = false;
    boolean anySatisfied = false;
    boolean anyNever = false;
    for (Condition c : d.conditions()) {
      Outcome o = c.type() == Dependency.Type.SINGLETON ? singleton(job) : condition(c, task);
      anyWaiting |= o == Outcome.WAITING;
      anySatisfied |= o == Outcome.SATISFIED;
      anyNever |= o == Outcome.NEVER;
    }
    if (d.anyOf()) {
      return anySatisfied ? Outcome.SATISFIED : anyWaiting ? Outcome.WAITING : Outcome.NEVER;
    }
    return anyNever ? Outcome.NEVER : anyWaiting ? Outcome.WAITING : Outcome.SATISFIED;
  }

  private List<Job> withId(long id) {
    if (byId == null) {
      byId = new HashMap<>();
      for (Job j : jobs) {
        byId.computeIfAbsent(j.key().id(), k -> new ArrayList<>()).add(j);
        if (j.jobId() != j.key().id()) {
          byId.computeIfAbsent(j.jobId(), k -> new ArrayList<>()).add(j);
        }
      }
    }
    return byId.getOrDefault(id, List.of());
  }

  private Outcome condition(Condition c, Integer task) {
    Integer wantedTask = c.type() == Dependency.Type.AFTERCORR ? task : c.taskId();
    List<Job> targets = new ArrayList<>();
    for (Job j : withId(c.jobId())) {
      if (c.taskId() != null && j.key().id() != c.jobId()) {
        continue; // id_task names a task of array id, never of a task's own id
      }
      if (wantedTask == null || wantedTask.equals(j.key().taskId())
          || (j.isArrayRemainder() && j.pendingTasks().contains(wantedTask))) {
        targets.add(j);
      }
    }
    if (targets.isEmpty()) {
      return Outcome.NEVER;
    }
    return switch (c.type()) {
      case AFTER -> after(targets, c.delayMinutes());
      case AFTERANY, AFTERBURSTBUFFER -> allFinished(targets) ? Outcome.SATISFIED : Outcome.WAITING;
      case AFTEROK, AFTERCORR -> afterOk(targets);
      case AFTERNOTOK -> afterNotOk(targets);
      case SINGLETON -> throw new IllegalStateException("singleton has no target job");
    };
  }

  private Outcome after(List<Job> targets, int delayMinutes) {
    for (Job j : targets) {
      if (j.state() == JobState.CANCELLED) {
        continue;
      }
      if (j.startTime() == null || now.isBefore(j.startTime().plus(Duration.ofMinutes(delayMinutes)))) {
        return Outcome.WAITING;
      }
    }
    return Outcome.SATISFIED;
  }

  private static boolean allFinished(List<Job> targets) {
    return targets.stream().allMatch(j -> j.state().isFinished());
  }

  private static boolean succeeded(Job j) {
    return j.state() == JobState.COMPLETED && (j.exitCode() == null || j.exitCode() == 0);
  }

  private static Outcome afterOk(List<Job> targets) {
    for (Job j : targets) {
      if (j.state().isFinished() && !succeeded(j)) {
        return Outcome.NEVER;
      }
    }
    return allFinished(targets) ? Outcome.SATISFIED : Outcome.WAITING;
  }

  private static Outcome afterNotOk(List<Job> targets) {
    if (!allFinished(targets)) {
      return Outcome.WAITING;
    }
    return targets.stream().allMatch(DependencyCheck::succeeded) ? Outcome.NEVER : Outcome.SATISFIED;
  }

  /** Waits while an earlier job with the same name and user is not finished. */
  private Outcome singleton(Job job) {
    if (byNameAndUser == null) {
      byNameAndUser = new HashMap<>();
      for (Job j : jobs) {
        byNameAndUser.computeIfAbsent(nameAndUser(j), k -> new ArrayList<>()).add(j);
      }
    }
    for (Job other : byNameAndUser.getOrDefault(nameAndUser(job), List.of())) {
      if (other.key().id() < job.key().id() && !other.state().isFinished()) {
        return Outcome.WAITING;
      }
    }
    return Outcome.SATISFIED;
  }
}
