package io.squall.cli.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StateNamesTest {
  @Test
  void jobStatesHaveSlurmsCodes() {
    assertThat(JobStates.shortName("PENDING")).isEqualTo("PD");
    assertThat(JobStates.shortName("RUNNING")).isEqualTo("R");
    assertThat(JobStates.shortName("COMPLETING")).isEqualTo("CG");
    assertThat(JobStates.shortName("COMPLETED")).isEqualTo("CD");
    assertThat(JobStates.shortName("FAILED")).isEqualTo("F");
    assertThat(JobStates.shortName("CANCELLED")).isEqualTo("CA");
    assertThat(JobStates.shortName("TIMEOUT")).isEqualTo("TO");
    assertThat(JobStates.shortName("PREEMPTED")).isEqualTo("PR");
    assertThat(JobStates.shortName("NODE_FAIL")).isEqualTo("NF");
    assertThat(JobStates.shortName("SOMETHING_NEW")).isEqualTo("SOMETHING_NEW");
  }

  @Test
  void stateListsTakeCodesAndNamesInAnyCase() {
    assertThat(JobStates.parseList("PD,r,Completing,cg,TO,nf")).containsExactly("PENDING", "RUNNING", "COMPLETING",
        "TIMEOUT", "NODE_FAIL");
    assertThat(JobStates.parseList("all")).isEmpty();
    assertThatThrownBy(() -> JobStates.parseList("R,bogus"))
        .hasMessageStartingWith("Invalid job state specified: bogus");
  }

  @Test
  void activeStatesAreSqualsUnfinishedOnes() {
    assertThat(JobStates.ACTIVE).containsExactly("PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "REQUEUED");
  }

  @Test
  void nodeStatesAsSinfoPrintsThem() {
    assertThat(NodeStates.shortName("IDLE")).isEqualTo("idle");
    assertThat(NodeStates.shortName("MIXED")).isEqualTo("mix");
    assertThat(NodeStates.shortName("ALLOCATED")).isEqualTo("alloc");
    assertThat(NodeStates.shortName("DRAINING")).isEqualTo("drng");
    assertThat(NodeStates.shortName("DOWN")).isEqualTo("down");
    assertThat(NodeStates.shortName("CLOUD")).isEqualTo("idle~");
    assertThat(NodeStates.shortName("POWERING_UP")).isEqualTo("idle#");
    assertThat(NodeStates.shortName("POWERING_DOWN")).isEqualTo("idle%");
    assertThat(NodeStates.longName("MIXED")).isEqualTo("mixed");
    assertThat(NodeStates.longName("ALLOCATED")).isEqualTo("allocated");
    assertThat(NodeStates.longName("CLOUD")).isEqualTo("idle~");
    // A state the core does not have prints as itself, in lower case.
    assertThat(NodeStates.shortName("REBOOTING")).isEqualTo("rebooting");
    assertThat(NodeStates.longName(null)).isEqualTo("unknown");
  }
}
