package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.job;
import static io.squall.core.schedule.Fixtures.simple;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A job's age counts from when it became eligible (hold released, dependency met), not from its
 * submission, unless PriorityFlags=ACCRUE_ALWAYS says so. Each scenario: one 8-GPU node busy
 * for two days; job 1 (submitted first) is held back, job 2 of the same size is submitted a day
 * later and can run at once; the node frees and one of them starts.
 */
class EligibleAgeTest {
  private static final Duration HOUR = Duration.ofHours(1);
  private static final JobKey FIRST = JobKey.of(1);
  private static final JobKey SECOND = JobKey.of(2);
  private static final UnaryOperator<Job> HOLD = j -> j.withRequest(j.request().withHold(true));
  private static final UnaryOperator<Job> RELEASE = j -> j.withRequest(j.request().withHold(false));

  /** Job 9 holds the only node for {@code busy}; {@code first} waits from T0. */
  private static Harness busyNode(SchedulerConfig config, Duration busy, Job first) {
    Job blocker = job(9, "--gres=gpu:8", T0)
        .started(JobKey.of(9), "gpu", List.of(new GpuGrant("gpu001", List.of(0, 1, 2, 3, 4, 5, 6, 7), 1, 0)), T0);
    return new Harness(config, simple(1, 1, List.of(blocker, first)), T0).runtime(9, busy);
  }

  /** Cycles hourly until {@code hours} after T0 (the next cycle is then due at hours + 1). */
  private static void runTo(Harness h, long hours) {
    h.runUntil(T0.plus(Duration.ofHours(hours)), HOUR);
  }

  private static void secondSubmittedAfterADay(Harness h) {
    runTo(h, 23);
    h.submit(job(2, "--gres=gpu:8", h.now()));
  }

  @Test
  void aJobHeldForTwoDaysGetsNoAgeForTheHold() {
    Harness h = busyNode(SchedulerConfig.defaults(), Duration.ofHours(49), job(1, "-H --gres=gpu:8", T0));
    secondSubmittedAfterADay(h);
    runTo(h, 47);
    h.change(FIRST, RELEASE);
    runTo(h, 49);
    assertThat(h.job(SECOND).state()).as("eligible for a day: it goes first").isEqualTo(JobState.RUNNING);
    assertThat(h.job(FIRST).state()).as("eligible for an hour").isEqualTo(JobState.PENDING);
    assertThat(h.job(FIRST).eligibleSince()).isEqualTo(T0.plus(Duration.ofHours(48)));
    assertThat(h.job(SECOND).eligibleSince()).isEqualTo(T0.plus(Duration.ofHours(24)));
  }

  @Test
  void withAccrueAlwaysAHeldJobAgesFromItsSubmission() {
    Harness h = busyNode(SchedulerConfig.defaults().withAccrueAlways(true), Duration.ofHours(49),
        job(1, "-H --gres=gpu:8", T0));
    secondSubmittedAfterADay(h);
    runTo(h, 47);
    h.change(FIRST, RELEASE);
    runTo(h, 49);
    assertThat(h.job(FIRST).state()).as("two days old").isEqualTo(JobState.RUNNING);
    assertThat(h.job(SECOND).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  void withAccrueAlwaysADependentJobAgesFromItsSubmission() {
    Harness h = busyNode(SchedulerConfig.defaults().withAccrueAlways(true), Duration.ofHours(48),
        job(1, "--gres=gpu:8 -d afterok:9", T0));
    secondSubmittedAfterADay(h);
    runTo(h, 48);
    assertThat(h.job(FIRST).state()).isEqualTo(JobState.RUNNING);
    assertThat(h.job(SECOND).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  void aJobWaitingTwoDaysOnADependencyGetsNoAgeForTheWait() {
    // Job 1 depends on job 9, which holds the node for two days.
    Harness h = busyNode(SchedulerConfig.defaults(), Duration.ofHours(48), job(1, "--gres=gpu:8 -d afterok:9", T0));
    secondSubmittedAfterADay(h);
    runTo(h, 48);
    assertThat(h.job(SECOND).state()).isEqualTo(JobState.RUNNING);
    assertThat(h.job(FIRST).state()).isEqualTo(JobState.PENDING);
  }

  @Test
  void aHoldSetsBackTheAgeAJobHadAlreadyGained() {
    Harness h = busyNode(SchedulerConfig.defaults(), Duration.ofHours(49), job(1, "--gres=gpu:8", T0));
    runTo(h, 11);
    h.change(FIRST, HOLD);
    secondSubmittedAfterADay(h);
    runTo(h, 47);
    h.change(FIRST, RELEASE);
    runTo(h, 49);
    assertThat(h.job(SECOND).state()).isEqualTo(JobState.RUNNING);
    assertThat(h.job(FIRST).state()).isEqualTo(JobState.PENDING);
  }
}
