package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.job;
import static io.squall.core.schedule.Fixtures.names;
import static io.squall.core.schedule.Fixtures.nodes;
import static io.squall.core.schedule.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.Job;
import io.squall.core.model.Node;
import io.squall.core.model.Partition;
import io.squall.core.model.PreemptMode;
import io.squall.core.priority.PriorityWeights;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What sprio shows, from the scheduler itself: each pending job's factors in each partition it may
 * run in, making the very priority a cycle orders the queue by.
 */
class PrioritiesTest {
  @Test
  void eachPendingJobHasItsFactorsInEachPartitionItMayRunIn() {
    List<Node> all = new ArrayList<>(nodes("gpu", 2, 2));
    Partition gpu = Partition.of("gpu", names(all)).asDefault();
    Partition high = Partition.of("high", names(all)).withPriority(4, 1, PreemptMode.OFF, 0);
    Job aging = job(1, "-N 1 --gres=gpu:8").eligibleSince(T0);
    Job both = job(2, "-N 2 -p gpu,high --nice=100 --gres=gpu:8").eligibleSince(T0.plus(Duration.ofDays(7)));
    Job held = job(3, "-H");
    Job explicit = job(4, "--priority=42");
    ClusterSnapshot snap = snapshot(all, List.of(gpu, high), List.of(aging, both, held, explicit));
    SchedulerConfig config = SchedulerConfig.defaults();
    Scheduler scheduler = new Scheduler(config);

    List<JobPriority> lines = scheduler.priorities(snap, T0.plus(Duration.ofDays(7)));

    assertThat(lines).extracting(l -> l.job().key().id() + ":" + l.partition())
        .containsExactly("1:gpu", "2:gpu", "2:high", "4:gpu");
    PriorityWeights w = config.weights();
    JobPriority first = lines.get(0);
    assertThat(first.factors().age()).as("eligible for PriorityMaxAge").isEqualTo(1.0);
    assertThat(first.factors().jobSize()).isEqualTo(0.5);
    assertThat(first.factors().partition()).as("factor 1 of the largest, 4").isEqualTo(0.25);
    assertThat(first.priority()).isEqualTo(Math.round(w.age() * 1.0 + w.fairShare() * first.factors().fairShare()
        + w.jobSize() * 0.5 + w.partition() * 0.25 + w.qos() * first.factors().qos()));
    JobPriority inHigh = lines.get(2);
    assertThat(inHigh.factors().age()).as("just became eligible").isZero();
    assertThat(inHigh.factors().partition()).isEqualTo(1.0);
    assertThat(inHigh.factors().nice()).isEqualTo(100);
    assertThat(inHigh.priority()).isEqualTo(lines.get(1).priority() + Math.round(w.partition() * 0.75));
    assertThat(lines.get(3).priority()).isEqualTo(42);
    assertThat(lines.get(3).factors().explicit()).isEqualTo(42);
  }
}
