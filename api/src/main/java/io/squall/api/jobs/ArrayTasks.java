package io.squall.api.jobs;

import io.squall.api.state.Batch;
import io.squall.api.state.StoredJob;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import java.util.ArrayList;
import java.util.List;

/**
 * Takes a task off its array's pending remainder, making it a job of its own with a job id of its
 * own, as slurmctld splits a task off its array's record when it starts or when a command names it
 * alone (hold, release, cancel). The first task to leave gets the array's id, each later one the
 * next free id (never one given before), so SLURM_ARRAY_JOB_ID is the first task's SLURM_JOB_ID.
 */
final class ArrayTasks {
  private ArrayTasks() {}

  /**
   * The task as it would be taken off its array, not staged: for checking a command before
   * anything is written. Its job id is only given by {@link #splitOff}; null when the array has no
   * such pending task.
   */
  static StoredJob preview(Batch b, JobKey key) {
    StoredJob rest = b.job(JobKey.of(key.id()));
    if (rest == null || !rest.job().pendingTasks().contains(key.taskId())) {
      return null;
    }
    return taskOf(rest, key.taskId(), rest.job().jobId());
  }

  /** Stages taking the pending task {@code key} off its array (the array goes with its last task), and returns it. */
  static StoredJob splitOff(Batch b, JobKey key) {
    StoredJob rest = b.job(JobKey.of(key.id()));
    Job array = rest.job();
    StoredJob task = taskOf(rest, key.taskId(), array.isWholeArray() ? array.jobId() : b.allocateJobId());
    List<Integer> others = new ArrayList<>(array.pendingTasks());
    others.remove(key.taskId());
    if (others.isEmpty()) {
      b.remove(rest.key());
    } else {
      b.update(rest.withJob(array.withPendingTasks(others)));
    }
    b.insert(task);
    return task;
  }

  private static StoredJob taskOf(StoredJob rest, int taskId, long ownId) {
    return new StoredJob(rest.job().task(taskId, ownId), rest.submission(), rest.reason(), null, null, null, null,
        List.of(), null);
  }
}
