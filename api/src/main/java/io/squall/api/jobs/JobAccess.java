package io.squall.api.jobs;

import io.squall.api.auth.Caller;
import io.squall.api.state.ApiException;
import io.squall.api.state.JobHistory;
import io.squall.api.state.StateWriter;
import io.squall.api.state.StoredJob;
import io.squall.core.model.JobKey;
import jakarta.inject.Singleton;
import java.util.List;

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
   * An exact key ({@code 42}, {@code 42_3}), else the first job with that id (an array's
   * remainder or first task).
   *
   * @throws ApiException 404 for an unknown job and for another user's job: like Slurm with
   *     PrivateData=jobs, a job that is not yours is not said to exist
   */
  public StoredJob visible(Caller caller, String id) {
    JobKey key = JobCommands.parseJobId(id);
    StoredJob s = writer.state().job(key);
    if (s == null && key.taskId() == null) {
      s = writer.state().jobsWithId(key.id()).stream().findFirst().orElse(null);
    }
    if (s == null) {
      s = stored(key);
    }
    if (s == null || !caller.mayControl(s.job().user())) {
      throw ApiException.notFound("Invalid job id specified: " + id);
    }
    return s;
  }

  /** A job that has left memory (past MinJobAge): the exact key, else the first with its id. */
  private StoredJob stored(JobKey key) {
    List<StoredJob> withId = history.withId(key.id());
    return withId.stream().filter(j -> j.key().equals(key)).findFirst()
        .orElse(key.taskId() == null && !withId.isEmpty() ? withId.get(0) : null);
  }
}
