package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.job;
import static io.squall.core.schedule.Fixtures.names;
import static io.squall.core.schedule.Fixtures.nodes;
import static io.squall.core.schedule.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.Node;
import io.squall.core.model.Partition;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Slurm's PriorityFavorSmall=YES (slurm.conf(5): "the smaller the job, the greater the job size
 * factor"): the job size factor is 1 minus the job's share of the cluster's nodes, and with
 * PriorityFlags=SMALL_RELATIVE_TO_TIME 1 minus that share over the time limit in minutes. Off by
 * default, as in Slurm.
 */
class FavorSmallTest {
  @Test
  void theSizeFactorIsOneMinusTheSizeSoTheSmallerJobRanksHigher() {
    List<Node> all = nodes("gpu", 4, 4);
    Partition gpu = Partition.of("gpu", names(all)).asDefault();
    ClusterSnapshot snap = snapshot(all, List.of(gpu), List.of(job(1, "-N 2 --gres=gpu:8 -t 240"),
        job(2, "--gres=gpu:1 -t 30")));
    SchedulerConfig small = SchedulerConfig.defaults().withFavorSmall(true);

    List<JobPriority> favored = new Scheduler(small).priorities(snap, T0);
    List<JobPriority> relative = new Scheduler(small.withSmallRelativeToTime(true)).priorities(snap, T0);

    assertThat(favored).extracting(p -> p.factors().jobSize()).containsExactly(0.5, 0.75);
    assertThat(favored.get(1).priority()).as("the one-node job ranks above the gang")
        .isGreaterThan(favored.get(0).priority());
    assertThat(relative).extracting(p -> p.factors().jobSize()).containsExactly(1 - 0.5 / 240, 1 - 0.25 / 30);
    assertThat(new Scheduler(SchedulerConfig.defaults()).priorities(snap, T0))
        .extracting(p -> p.factors().jobSize()).as("by default the larger job ranks higher").containsExactly(0.5, 0.25);
  }
}
