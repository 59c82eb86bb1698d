package io.squall.api.jobs;

import io.squall.api.auth.Caller;
import io.squall.api.state.ApiException;
import io.squall.api.state.JobHistory;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.core.model.JobKey;
import jakarta.inject.Singleton;

/** Finds the job an id names, if the caller may see it: in memory, else (finished long ago) in the database. */
@Singleton
public final class JobAccess {
  private final StateWriter writer;
  private final JobHistory history;

  public JobAccess(StateWriter writer, JobHistory history) {
    this.writer = writer;
    this.history = history;
  }

  /**
   * An exact key ({@code 42}, {@code 42_3}), else the first job {@code 42} names (an array's first
   * task, or the task whose own job id is 42).
   *
   * @throws ApiException 404 for an unknown job and for another user's job: like Slurm with
   *     PrivateData=jobs, a job that is not yours is not said to exist
   */
  public StoredJob visible(Caller caller, String id) {
    return find(caller, id, false);
  }

  /**
   * As {@link #visible}, but a task still waiting in its array's pending remainder is shown as that
   * remainder, as {@code scontrol show job 42_3} shows the array's record (it has no run, output or
   * checkpoints of its own yet).
   */
  public StoredJob shown(Caller caller, String id) {
    return find(caller, id, true);
  }

  private StoredJob find(Caller caller, String id, boolean orItsArray) {
    JobKey key = JobCommands.parseJobId(id);
    StoredJob s = writer.state().job(key);
    if (s == null && key.taskId() == null) {
      s = writer.state().jobsNamed(key.id()).stream().findFirst().orElse(null);
    } else if (s == null && orItsArray) {
      StoredJob array = writer.state().job(JobKey.of(key.id()));
      s = array != null && array.job().pendingTasks().contains(key.taskId()) ? array : null;
    }
    if (s == null) {
      // Finished past MinJobAge: only the database has it.
      s = history.named(key).stream().findFirst().orElse(null);
    }
    if (s == null || !caller.mayControl(s.job().user())) {
      throw ApiException.notFound("Invalid job id specified: " + id);
    }
    return s;
  }
}
