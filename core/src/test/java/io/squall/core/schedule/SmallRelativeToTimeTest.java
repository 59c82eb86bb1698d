package io.squall.core.schedule;

import static io.squall.core.schedule.Fixtures.T0;
import static io.squall.core.schedule.Fixtures.job;
import static io.squall.core.schedule.Fixtures.names;
import static io.squall.core.schedule.Fixtures.nodes;
import static io.squall.core.schedule.Fixtures.simple;
import static io.squall.core.schedule.Fixtures.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.ClusterSnapshot;
import io.squall.core.model.JobKey;
import io.squall.core.model.Node;
import io.squall.core.model.Partition;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Slurm's PriorityFlags=SMALL_RELATIVE_TO_TIME (slurm.conf(5)): the job size factor is the job's
 * size divided by its time limit in minutes, so that of two jobs of the same size the shorter
 * ranks first, and a gang for a short time may rank above a small job for a long one. Off by
 * default, as in Slurm: the size alone.
 */
class SmallRelativeToTimeTest {
  private static final SchedulerConfig RELATIVE = SchedulerConfig.defaults().withSmallRelativeToTime(true);

  @Test
  void theSizeFactorIsTheSizeOverTheTimeLimitInMinutesAndNoneForAnUnlimitedJob() {
    List<Node> all = nodes("gpu", 4, 4);
    Partition gpu = Partition.of("gpu", names(all)).asDefault(); // no MaxTime: -t UNLIMITED stays so
    ClusterSnapshot snap = snapshot(all, List.of(gpu), List.of(job(1, "-N 2 --gres=gpu:8 -t 240"),
        job(2, "--gres=gpu:1 -t 30"), job(3, "--gres=gpu:1 -t UNLIMITED")));

    List<JobPriority> plain = new Scheduler(SchedulerConfig.defaults()).priorities(snap, T0);
    List<JobPriority> relative = new Scheduler(RELATIVE).priorities(snap, T0);

    assertThat(plain).extracting(p -> p.factors().jobSize()).containsExactly(0.5, 0.25, 0.25);
    assertThat(relative).extracting(p -> p.factors().jobSize()).containsExactly(0.5 / 240, 0.25 / 30, 0.0);
    assertThat(relative.get(1).priority()).as("the short single-node job ranks above the long gang")
        .isGreaterThan(relative.get(0).priority());
    assertThat(plain.get(1).priority()).isLessThan(plain.get(0).priority());
  }

  @Test
  void ofTwoJobsOfTheSameSizeTheShorterStartsFirstOnlyWithTheFlag() {
    // One node; two whole-node jobs submitted together: the same size, the first for 10 hours.
    ClusterSnapshot snap = simple(1, 1, List.of(job(1, "--gres=gpu:8 -t 600"), job(2, "--gres=gpu:8 -t 10")));

    Plan plain = new Scheduler(SchedulerConfig.defaults()).cycle(snap, T0);
    Plan relative = new Scheduler(RELATIVE).cycle(snap, T0);

    assertThat(plain.starts()).extracting(Action.Start::job).containsExactly(JobKey.of(1));
    assertThat(relative.starts()).extracting(Action.Start::job).containsExactly(JobKey.of(2));
    assertThat(new Scheduler(RELATIVE).cycle(snap, T0)).as("same input, same plan").isEqualTo(relative);
  }
}
