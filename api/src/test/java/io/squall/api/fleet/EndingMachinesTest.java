package io.squall.api.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.scheduling.Wakeup;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A terminated machine is ending until a list of the provider's instances leaves it out. */
class EndingMachinesTest {
  private final EndingMachines machines = new EndingMachines(new Wakeup());

  @Test
  void aMachineStillListedAfterItsTerminateIsStillEnding() {
    machines.terminated("cloud-1", "i-1");
    machines.terminated("cloud-2", "i-2");
    assertThat(machines.ending("cloud-1")).isTrue();

    machines.listed(Set.of("i-1", "i-9")); // i-1 shutting down, still listed; i-2 terminated
    assertThat(machines.ending("cloud-1")).isTrue();
    assertThat(machines.ending("cloud-2")).isFalse();

    machines.listed(Set.of("i-9"));
    assertThat(machines.ending("cloud-1")).isFalse();
    assertThat(machines.any()).isFalse();
  }
}
