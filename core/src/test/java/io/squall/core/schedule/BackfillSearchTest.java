package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.job;
import static io.squall.core.schedule.Fixtures.simple;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reservation search of a blocked job: it walks every time something frees within
 * bf_window, on bf_resolution's grid, for up to bf_max_job_test jobs (slurm.conf(5)
 * SchedulerParameters).
 */
class BackfillSearchTest {
  private static Job running(long id, String options, List<GpuGrant> grants) {
    return job(id, options, T0.minusSeconds(60)).started(JobKey.of(id), "gpu", grants, T0);
  }

  private static List<GpuGrant> wholeNode(String name) {
    return List.of(new GpuGrant(name, List.of(0, 1, 2, 3, 4, 5, 6, 7), 1, 0));
  }

  private static Action.Wait waitOf(Plan plan, long id) {
    return plan.waits().stream().filter(w -> w.job().equals(JobKey.of(id))).findFirst().orElseThrow();
  }

  private static Plan cycle(Backfill backfill, List<Job> jobs, int nodes) {
    return new Scheduler(SchedulerConfig.defaults().withBackfill(backfill)).cycle(simple(nodes, nodes, jobs), T0);
  }

  @Test
  void aGangReservesBehindManyEarlierEndingsAndALongerLowerJobKeepsOffItsNodes() {
    // gpu001 is busy for two hours; gpu003-gpu012 free one after another, every ten minutes.
    List<Job> jobs = new ArrayList<>();
    jobs.add(running(1, "--gres=gpu:8 -t 120", wholeNode("gpu001")));
    for (int k = 1; k <= 10; k++) {
      jobs.add(running(10 + k, "--gres=gpu:8 -t " + 10 * k, wholeNode(String.format("gpu%03d", 2 + k))));
    }
    jobs.add(job(2, "-N 2 --gres=gpu:8 -t 60 --nodelist=gpu001,gpu002 --priority=100"));
    // Only gpu002 is free now: for ten hours there it would hold the gang back for as long.
    jobs.add(job(3, "--gres=gpu:8 -t 600 --priority=10"));

    Plan plan = cycle(Backfill.defaults(), jobs, 12);

    assertThat(waitOf(plan, 2).expectedStart()).isEqualTo(T0.plus(Duration.ofMinutes(120)));
    assertThat(plan.starts()).isEmpty();
    assertThat(waitOf(plan, 3).reason()).isEqualTo(PendingReason.PRIORITY);
  }

  @Test
  void aJobThatCanOnlyStartBeyondTheWindowWaitsWithoutAReservationAndLowerJobsBackfill() {
    // gpu001 is busy for 25 hours, past the default window of 1440 minutes.
    List<Job> jobs = List.of(running(1, "--gres=gpu:8 -t 1500", wholeNode("gpu001")),
        job(2, "-N 2 --gres=gpu:8 -t 60 --priority=100"),
        job(3, "--gres=gpu:8 -t 2000 --priority=10"));

    Plan inWindow = cycle(new Backfill(Duration.ofMinutes(1500), 500, Duration.ofSeconds(60)), jobs, 2);
    assertThat(waitOf(inWindow, 2).expectedStart()).isEqualTo(T0.plus(Duration.ofMinutes(1500)));
    assertThat(inWindow.starts()).isEmpty();

    Plan beyond = cycle(Backfill.defaults(), jobs, 2);
    assertThat(waitOf(beyond, 2).reason()).isEqualTo(PendingReason.RESOURCES);
    assertThat(waitOf(beyond, 2).expectedStart()).isNull();
    assertThat(beyond.starts()).extracting(Action.Start::job).containsExactly(JobKey.of(3));
  }

  @Test
  void reservedStartsLieOnTheResolutionsGrid() {
    // gpu001 frees 90 seconds from now.
    Job busy = job(1, "--gres=gpu:8 -t 2", T0.minusSeconds(90)).started(JobKey.of(1), "gpu", wholeNode("gpu001"),
        T0.minusSeconds(30));
    List<Job> jobs = List.of(busy, job(2, "-N 2 --gres=gpu:8 -t 60"));
    Instant freed = T0.plusSeconds(90);

    assertThat(waitOf(cycle(Backfill.defaults(), jobs, 2), 2).expectedStart()).isEqualTo(T0.plusSeconds(120));
    Backfill toTheSecond = new Backfill(Backfill.defaults().window(), 500, Duration.ofSeconds(1));
    assertThat(waitOf(cycle(toTheSecond, jobs, 2), 2).expectedStart()).isEqualTo(freed);
  }

  @Test
  void onlyTheFirstMaxJobTestBlockedJobsGetAReservation() {
    List<Job> jobs = List.of(running(1, "--gres=gpu:8 -t 60", wholeNode("gpu001")),
        job(2, "-N 2 --gres=gpu:8 -t 60 --priority=100"), job(3, "-N 2 --gres=gpu:8 -t 60 --priority=10"));

    Plan two = cycle(Backfill.defaults(), jobs, 2);
    assertThat(waitOf(two, 2).expectedStart()).isEqualTo(T0.plus(Duration.ofMinutes(60)));
    assertThat(waitOf(two, 3).expectedStart()).isEqualTo(T0.plus(Duration.ofMinutes(120)));

    Plan one = cycle(new Backfill(Backfill.defaults().window(), 1, Duration.ofSeconds(60)), jobs, 2);
    assertThat(waitOf(one, 2).expectedStart()).isEqualTo(T0.plus(Duration.ofMinutes(60)));
    assertThat(waitOf(one, 3).expectedStart()).isNull();
  }
}
