package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.job;
import static io.squall.core.schedule.Fixtures.simple;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Array tasks that left their array's pending remainder are jobs of their own, each with its own
 * job id: they start like any job, and dependencies may name them by that id.
 */
class ArrayTaskJobsTest {
  private final Scheduler scheduler = new Scheduler(SchedulerConfig.defaults());

  /** Task {@code task} of array {@code array}, taken off it with job id {@code ownId}, in {@code state}. */
  private static Job task(Job array, int task, long ownId, JobState state) {
    Job own = array.task(task, ownId).started(JobKey.task(array.key().id(), task), "gpu", List.of(),
        T0.minusSeconds(60));
    return state == JobState.RUNNING ? own : own.finished(state, state == JobState.COMPLETED ? 0 : 1, T0);
  }

  private static PendingReason reason(Plan plan, long id) {
    return plan.waits().stream().filter(w -> w.job().equals(JobKey.of(id))).findFirst().orElseThrow().reason();
  }

  @Test
  void aTaskHeldAloneThenReleasedStarts() {
    Job array = job(1, "--array=0-1 --gres=gpu:1");
    Job held = array.task(0, 1).withRequest(array.request().withHold(true));
    Harness h = new Harness(SchedulerConfig.defaults(),
        simple(1, 1, List.of(array.withPendingTasks(List.of(1)), held)), T0);
    h.cycle();
    h.change(JobKey.task(1, 0), j -> j.withRequest(j.request().withHold(false)));
    h.cycle();
    assertThat(h.job(JobKey.task(1, 0)).state()).isEqualTo(JobState.RUNNING);
    assertThat(h.job(JobKey.task(1, 1)).state()).isEqualTo(JobState.RUNNING);
  }

  @Test
  void aRequeuedTaskStartsAgain() {
    Harness h = new Harness(SchedulerConfig.defaults(), simple(1, 1, List.of(job(1, "--array=0-1 --gres=gpu:1"))), T0);
    h.cycle();
    h.change(JobKey.task(1, 0), Job::requeued);
    h.cycle();
    Job again = h.job(JobKey.task(1, 0));
    assertThat(again.state()).isEqualTo(JobState.RUNNING);
    assertThat(again.restartCount()).isEqualTo(1);
  }

  @Test
  void aDependencyOnATasksOwnJobIdWaitsForThatTaskAlone() {
    // Array 1: task 0 (job id 1, the array's) completed, task 1 (job id 5) failed, task 2 (job id 6) runs.
    Job array = job(1, "--array=0-2 -t 5");
    List<Job> jobs = new ArrayList<>(List.of(task(array, 0, 1, JobState.COMPLETED),
        task(array, 1, 5, JobState.FAILED), task(array, 2, 6, JobState.RUNNING)));
    jobs.add(job(10, "--dependency=afterok:6"));
    jobs.add(job(11, "--dependency=afterok:5"));
    jobs.add(job(12, "--dependency=afternotok:5"));
    jobs.add(job(13, "--dependency=afterany:1")); // the array's id: every task, task 2 still runs
    jobs.add(job(14, "--dependency=afterany:5_1")); // no array 5: a task's own id is not an array's
    Plan plan = scheduler.cycle(simple(2, 2, jobs), T0);
    assertThat(reason(plan, 10)).isEqualTo(PendingReason.DEPENDENCY);
    assertThat(reason(plan, 11)).isEqualTo(PendingReason.DEPENDENCY_NEVER_SATISFIED);
    assertThat(plan.starts()).extracting(Action.Start::job).containsExactly(JobKey.of(12));
    assertThat(reason(plan, 13)).isEqualTo(PendingReason.DEPENDENCY);
    assertThat(reason(plan, 14)).isEqualTo(PendingReason.DEPENDENCY_NEVER_SATISFIED);
  }
}
