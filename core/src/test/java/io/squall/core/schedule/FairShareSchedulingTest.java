package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Account;
import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.Qos;
import io.squall.core.model.UsageLedger;
import io.squall.core.model.UserAssociation;
import io.squall.core.priority.FairShareAlgorithm;
import io.squall.core.priority.FairSharePolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fair Tree orders the queue by default, as in Slurm since 19.05; the classic algorithm
 * (PriorityFlags=NO_FAIR_TREE) is an option. Accounts A (a1 used 55 GPU-hours, a2 nothing) and B
 * (b1 used 45, b2 nothing) have equal shares; a2 and b1 want the one node. B used less than A, so
 * under Fair Tree every user of B ranks above every user of A: b1 (3 of 4) before a2 (2 of 4).
 * The classic formula gives a2, who used nothing, 2^-0.55 = 0.68 and b1 2^-1.35 = 0.39.
 */
class FairShareSchedulingTest {
  private static final ClusterSnapshot QUEUE = queue();

  @Test
  void fairTreeIsTheDefault() {
    Plan plan = new Scheduler(SchedulerConfig.defaults()).cycle(QUEUE, T0);
    assertThat(plan.starts()).extracting(Action.Start::job).containsExactly(JobKey.of(2));
  }

  @Test
  void theClassicAlgorithmIsAnOption() {
    SchedulerConfig classic = SchedulerConfig.defaults().withFairShare(
        new FairSharePolicy(FairShareAlgorithm.CLASSIC, Duration.ofMinutes(5), Duration.ofDays(7)));
    Plan plan = new Scheduler(classic).cycle(QUEUE, T0);
    assertThat(plan.starts()).extracting(Action.Start::job).containsExactly(JobKey.of(1));
  }

  private static ClusterSnapshot queue() {
    Job a2 = Job.pending(1, Fixtures.request("--gres=gpu:8"), "a2", "A", "normal", T0);
    Job b1 = Job.pending(2, Fixtures.request("--gres=gpu:8"), "b1", "B", "normal", T0);
    ClusterSnapshot one = Fixtures.simple(1, 1, List.of(a2, b1));
    UsageLedger used = UsageLedger.empty(T0, Duration.ofDays(7)).plus(List.of(
        new UsageLedger.Use("A", "a1", "normal", 55 * 3600, 55 * 3600),
        new UsageLedger.Use("B", "b1", "normal", 45 * 3600, 45 * 3600)), T0);
    return new ClusterSnapshot(one.nodes(), one.partitions(), Map.of("normal", Qos.normal()),
        List.of(new Account("A", null, 1), new Account("B", null, 1)),
        List.of(new UserAssociation("a1", "A", 1), new UserAssociation("a2", "A", 1),
            new UserAssociation("b1", "B", 1), new UserAssociation("b2", "B", 1)),
        one.jobs(), used);
  }
}
