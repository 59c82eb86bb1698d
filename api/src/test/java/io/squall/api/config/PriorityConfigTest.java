package io.squall.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.micronaut.context.ApplicationContext;
import io.squall.api.scheduling.SchedulerFactory;
import io.squall.core.model.Partition;
import io.squall.core.model.TresBillingWeights;
import io.squall.core.priority.FairShareAlgorithm;
import io.squall.core.priority.FairSharePolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code squall.priority.*}: accrue-always is Slurm's PriorityFlags=ACCRUE_ALWAYS and
 * small-relative-to-time its PriorityFlags=SMALL_RELATIVE_TO_TIME, each off unless set;
 * fair-share is Fair Tree with a 5 minute calc period and a 7 day half-life unless set (Slurm's
 * defaults); a partition's {@code tres-billing-weights} is its TRESBillingWeights, one unit per
 * GPU unless set. Wrong values stop the start naming the key.
 */
class PriorityConfigTest {
  /** The contexts start the controller's state: in a directory of their own, not ./squall-data. */
  @TempDir
  Path dir;

  @Test
  void accrueAlwaysReachesTheSchedulerWhenSetAndIsOffOtherwise() {
    assertThat(SchedulerFactory.config(new PriorityConfig(), new BackfillConfig()).accrueAlways()).isFalse();
    try (ApplicationContext ctx = ApplicationContext.run(Map.of("squall.priority.accrue-always", "true",
        "squall.data-dir", dir.toString()))) {
      assertThat(SchedulerFactory.config(ctx.getBean(PriorityConfig.class), ctx.getBean(BackfillConfig.class)).accrueAlways()).isTrue();
    }
  }

  @Test
  void smallRelativeToTimeReachesTheSchedulerWhenSetAndIsOffOtherwise() {
    assertThat(SchedulerFactory.config(new PriorityConfig(), new BackfillConfig()).smallRelativeToTime()).isFalse();
    try (ApplicationContext ctx = ApplicationContext.run(Map.of("squall.priority.small-relative-to-time", "true",
        "squall.data-dir", dir.toString()))) {
      assertThat(SchedulerFactory.config(ctx.getBean(PriorityConfig.class), ctx.getBean(BackfillConfig.class))
          .smallRelativeToTime()).isTrue();
    }
  }

  @Test
  void favorSmallReachesTheSchedulerWhenSetAndIsOffOtherwise() {
    assertThat(SchedulerFactory.config(new PriorityConfig(), new BackfillConfig()).favorSmall()).isFalse();
    try (ApplicationContext ctx = ApplicationContext.run(Map.of("squall.priority.favor-small", "true",
        "squall.data-dir", dir.toString()))) {
      assertThat(SchedulerFactory.config(ctx.getBean(PriorityConfig.class), ctx.getBean(BackfillConfig.class))
          .favorSmall()).isTrue();
    }
  }

  @Test
  void fairShareIsFairTreeUnlessClassicIsAskedFor() {
    assertThat(SchedulerFactory.config(new PriorityConfig(), new BackfillConfig()).fairShare()).isEqualTo(FairSharePolicy.defaults());
    assertThat(FairSharePolicy.defaults()).isEqualTo(
        new FairSharePolicy(FairShareAlgorithm.FAIR_TREE, Duration.ofMinutes(5), Duration.ofDays(7)));
    try (ApplicationContext ctx = ApplicationContext.run(Map.of("squall.priority.fairshare", "classic",
        "squall.priority.calc-period", "1m", "squall.priority.decay-half-life", "14d",
        "squall.data-dir", dir.toString()))) {
      assertThat(SchedulerFactory.config(ctx.getBean(PriorityConfig.class), ctx.getBean(BackfillConfig.class)).fairShare()).isEqualTo(
          new FairSharePolicy(FairShareAlgorithm.CLASSIC, Duration.ofMinutes(1), Duration.ofDays(14)));
    }
  }

  @Test
  void badFairShareSettingsAreRefusedNamingTheKey() {
    PriorityConfig p = new PriorityConfig();
    p.setFairshare("level-based");
    assertThatThrownBy(p::fairSharePolicy).hasMessage("squall.priority.fairshare: 'level-based' is not fair-tree or classic");
    p.setFairshare("fair-tree");
    p.setCalcPeriod(Duration.ZERO);
    assertThatThrownBy(p::fairSharePolicy).hasMessage("squall.priority.calc-period: must be above 0, not PT0S");
    p.setCalcPeriod(Duration.ofMinutes(5));
    p.setDecayHalfLife(Duration.ofDays(-1));
    assertThatThrownBy(p::fairSharePolicy).hasMessageStartingWith("squall.priority.decay-half-life: must be 0");
  }

  @Test
  void aPartitionsBillingWeightsAreReadAndOnePerGpuByDefault() {
    PartitionConfig gpu = new PartitionConfig("gpu");
    gpu.setNodes("node-[1-2]");
    PartitionConfig cpu = new PartitionConfig("cpu");
    cpu.setNodes("node-[3-4]");
    cpu.setTresBillingWeights("CPU=1.0,Mem=0.25G,GRES/gpu=2.0");
    List<Partition> parts = new ClusterLayout(List.of(gpu, cpu), List.of(), List.of(), new SquallConfig()).partitions();
    assertThat(parts.get(1).billingWeights()).isEqualTo(TresBillingWeights.GPUS);
    assertThat(parts.get(0).billingWeights().billing(1, 8192, 0, 1)).isCloseTo(3.0, within(1e-12));
    cpu.setTresBillingWeights("CPU=1,license/matlab=2");
    assertThatThrownBy(() -> new ClusterLayout(List.of(cpu), List.of(), List.of(), new SquallConfig()))
        .hasMessage("squall.partitions.cpu.tres-billing-weights: 'license/matlab=2': license/matlab is not a TRES"
            + " Squall tracks (CPU, Mem, Node, GRES/gpu)");
  }
}
