package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.jobOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Account;
import io.squall.core.model.Job;
import io.squall.core.model.JobState;
import io.squall.core.model.PreemptMode;
import io.squall.core.model.Qos;
import io.squall.core.model.Tres;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** MaxSubmitJobs (per user association, inherited from the account above) and the QOS's MaxSubmitJobsPerUser. */
class SubmitJobLimitsTest {
  private static final List<Account> ACCOUNTS = List.of(
      new Account("lab", null, 1, new Account.Limits(Tres.NONE, null, null, 2)), new Account("ml", "lab", 1));

  @Test
  void theNearestAccountsMaxSubmitJobsCountsTheUsersPendingAndRunningJobs() {
    Map<String, Qos> qos = Map.of("normal", Qos.normal());
    Job running = jobOf(1, "alice", "ml", "--gres=gpu:1").started(jobOf(1, "alice", "ml", "").key(), "gpu",
        List.of(), Fixtures.T0);
    Job finished = jobOf(2, "alice", "ml", "").finished(JobState.COMPLETED, 0, Fixtures.T0);
    Job bobs = jobOf(3, "bob", "ml", "");
    List<Job> jobs = List.of(running, finished, bobs);
    assertThat(SubmitLimits.jobLimitRefusal(jobOf(4, "alice", "ml", ""), ACCOUNTS, qos, () -> jobs)).isNull();
    assertThat(SubmitLimits.jobLimitRefusal(jobOf(4, "alice", "ml", "--array=1-2"), ACCOUNTS, qos, () -> jobs))
        .isEqualTo(SubmitLimits.ACCOUNTING_POLICY + ": account ml allows each user 2 pending or running jobs"
            + " (MaxSubmitJobs); alice has 1 and submits 2");
  }

  @Test
  void theQosMaxSubmitJobsPerUserCountsTheUsersJobsOfThatQos() {
    Qos one = new Qos("normal", 0, Set.of(), PreemptMode.REQUEUE, null, null).withUserLimits(Tres.NONE, null, 1);
    List<Job> jobs = List.of(jobOf(1, "alice", "research", ""));
    assertThat(SubmitLimits.jobLimitRefusal(jobOf(2, "alice", "research", ""), List.of(), Map.of("normal", one),
        () -> jobs)).isEqualTo(SubmitLimits.ACCOUNTING_POLICY + ": QOS normal allows each user 1 pending or running"
            + " jobs (MaxSubmitJobsPerUser); alice has 1");
    assertThat(SubmitLimits.jobLimitRefusal(jobOf(2, "bob", "research", ""), List.of(), Map.of("normal", one),
        () -> jobs)).isNull();
  }
}
