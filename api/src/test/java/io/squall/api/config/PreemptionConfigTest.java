package io.squall.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.model.Partition;
import io.squall.core.model.PreemptMode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Preemption is Slurm's: off unless a partition's {@code preempt-mode} says requeue or cancel (a
 * higher {@code priority-tier} alone preempts nothing), with its {@code grace-time}.
 */
class PreemptionConfigTest {
  private static PartitionConfig partition(String name, int tier) {
    PartitionConfig p = new PartitionConfig(name);
    p.setNodes("node-[1-2]");
    p.setPriorityTier(tier);
    return p;
  }

  private static Partition layout(PartitionConfig... partitions) {
    ClusterLayout l = new ClusterLayout(List.of(partitions), List.of(), List.of(), new SquallConfig());
    return l.partitions().stream().filter(p -> p.name().equals("low")).findFirst().orElseThrow();
  }

  @Test
  void preemptionIsOffUnlessThePartitionSaysHow() {
    Partition low = layout(partition("low", 1), partition("high", 2));
    assertThat(low.preemptMode()).isEqualTo(PreemptMode.OFF);
    assertThat(low.graceTimeSeconds()).isZero();
  }

  @Test
  void requeueOrCancelWithAGraceTime() {
    PartitionConfig low = partition("low", 1);
    low.setPreemptMode("requeue");
    low.setGraceTime(Duration.ofSeconds(90));
    Partition p = layout(low, partition("high", 2));
    assertThat(p.preemptMode()).isEqualTo(PreemptMode.REQUEUE);
    assertThat(p.graceTimeSeconds()).isEqualTo(90);
    low.setPreemptMode("CANCEL");
    assertThat(layout(low).preemptMode()).isEqualTo(PreemptMode.CANCEL);
  }

  @Test
  void anUnknownModeOrANegativeGraceIsRefusedWithTheSetting() {
    PartitionConfig low = partition("low", 1);
    low.setPreemptMode("suspend");
    assertThatThrownBy(() -> layout(low)).hasMessage(
        "squall.partitions.low.preempt-mode: 'suspend' is not off, requeue or cancel");
    low.setPreemptMode("off");
    low.setGraceTime(Duration.ofSeconds(-1));
    assertThatThrownBy(() -> layout(low)).hasMessageStartingWith("squall.partitions.low.grace-time: must be 0 or more");
  }
}
