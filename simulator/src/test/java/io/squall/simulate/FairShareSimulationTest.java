package io.squall.simulate;

import static io.squall.simulate.ElasticFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.model.Partition;
import io.squall.core.schedule.SchedulerConfig;
import io.squall.core.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The what-if simulator charges fair-share usage as the controller does: running jobs every calc
 * period, not only when they end. Two 8-GPU nodes: account heavy runs a 10 hour job on one, light
 * a 3 hour job on 4 GPUs of the other. Each then queues an 8-GPU job, heavy's first. When light's
 * job ends, 3 hours in, heavy has used 24 GPU-hours (still running) and light 12: light's job
 * goes first. Charged only at their ends, heavy would seem to have used nothing and go first.
 */
class FairShareSimulationTest {
  @Test
  void aRunningJobsUsageCountsBeforeItEnds() {
    ManualClock clock = new ManualClock(T0);
    List<Node> nodes = List.of(node("dgx-1"), node("dgx-2"));
    ElasticSimulation.Setup setup = new ElasticSimulation.Setup("sim", List.of(new ElasticSimulation.PartitionSetup(
        Partition.of("owned", List.of("dgx-1", "dgx-2")).asDefault(), nodes, null)), SchedulerConfig.defaults(),
        Duration.ofMillis(250), Duration.ofSeconds(1), Duration.ofDays(1), null, null);
    ElasticSimulation.Result r = new ElasticSimulation(setup, clock,
        new SimulatedProvider(clock, ElasticFixtures.CATALOGUE, new SplittableRandom(1))).run(List.of(
        job(Duration.ZERO, 8, Duration.ofHours(10), "heavy"),
        job(Duration.ZERO, 4, Duration.ofHours(3), "light"),
        job(Duration.ofHours(1), 8, Duration.ofHours(1), "heavy"),
        job(Duration.ofHours(2), 8, Duration.ofHours(1), "light")));

    assertThat(r.finished()).isTrue();
    assertThat(r.outcomes().get(3).firstStart()).isEqualTo(Duration.ofHours(3));
    assertThat(r.outcomes().get(2).firstStart()).isEqualTo(Duration.ofHours(4));
  }

  private static ElasticSimulation.JobSpec job(Duration submitAt, int gpus, Duration runtime, String account) {
    return new ElasticSimulation.JobSpec(submitAt, 1, gpus, runtime).withAccount(account);
  }

  private static Node node(String name) {
    return new Node(name, 8, "h100", 192, 2_097_152, Set.of("h100"), "rack", NodeState.IDLE);
  }
}
