package io.squall.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.Offering;
import io.squall.core.spot.Interruption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceReclaimsTest {
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");
  private static final Duration GAP = Duration.ofMinutes(10);
  /** Full (2) for two ticks, then short by 1, then by 2: weights 0, 0, 4/3, 8/3. */
  private static final TraceReclaims.Trace TRACE = new TraceReclaims.Trace("t", List.of(2, 2, 1, 0), GAP);

  private static Instance instance(String node, String zone) {
    return new Instance("i-" + node, node, "sim", "gpu", null, "tok",
        new Offering("p5.48xlarge", zone, CapacityType.SPOT, 20, Availability.AVAILABLE), InstanceState.PENDING);
  }

  private static TraceReclaims reclaims(double rate, long seed) {
    return new TraceReclaims(T0, List.of(new TraceReclaims.Assignment("az1", TRACE, 1)), rate, 0,
        Duration.ofMinutes(2), seed);
  }

  @Test
  void theHazardFollowsTheShortageInTheZonesTraceFromItsOffsetAndRepeats() {
    TraceReclaims r = reclaims(0.5, 1);
    // Offset 1: the run starts at the trace's second tick.
    assertThat(r.hazardPerHour("az1", T0)).isZero();
    assertThat(r.hazardPerHour("az1", T0.plus(GAP))).isCloseTo(0.5 * 4 / 3, within(1e-12));
    assertThat(r.hazardPerHour("az1", T0.plus(GAP.multipliedBy(2)))).isCloseTo(0.5 * 8 / 3, within(1e-12));
    assertThat(r.hazardPerHour("az1", T0.plus(GAP.multipliedBy(3)))).isZero();
    assertThat(r.hazardPerHour("az1", T0.plus(GAP.multipliedBy(4)))).isZero(); // wrapped to tick 1
    assertThat(r.hazardPerHour("elsewhere", T0)).isEqualTo(0.5); // a zone without a trace: the mean
    // With a baseline, a share of the hazard falls at all times; the mean stays the rate.
    TraceReclaims b = new TraceReclaims(T0, List.of(new TraceReclaims.Assignment("az1", TRACE, 0)), 0.5, 0.25,
        Duration.ofMinutes(2), 1);
    assertThat(b.hazardPerHour("az1", T0)).isCloseTo(0.5 * 0.25, within(1e-12));
    assertThat(b.hazardPerHour("az1", T0.plus(GAP.multipliedBy(3)))).isCloseTo(0.5 * (0.25 + 0.75 * 8 / 3),
        within(1e-12));
    double mean = 0;
    for (int k = 0; k < 4; k++) {
      mean += b.hazardPerHour("az1", T0.plus(GAP.multipliedBy(k))) / 4;
    }
    assertThat(mean).isCloseTo(0.5, within(1e-12));
  }

  @Test
  void noticesFallOnlyWhileCapacityIsShortAndAverageTheRatePerNodeHour() {
    TraceReclaims r = reclaims(0.5, 3);
    Instant t = T0;
    int count = 20_000;
    for (int i = 0; i < count; i++) {
      Interruption n = r.notice(instance("n1", "az1"), t);
      assertThat(r.hazardPerHour("az1", n.noticedAt().minusMillis(1))).isPositive();
      assertThat(n.deadline()).isEqualTo(n.noticedAt().plus(Duration.ofMinutes(2)));
      assertThat(n.node()).isEqualTo("n1");
      t = n.noticedAt(); // relaunched at once: the node is always exposed
    }
    double hours = Duration.between(T0, t).toMillis() / 3_600_000.0;
    assertThat(count / hours).isCloseTo(0.5, within(0.5 * 0.03));
  }

  @Test
  void eachNodeHasItsOwnStreamSoTheSameLaunchesGiveTheSameNotices() {
    TraceReclaims a = reclaims(0.5, 9);
    TraceReclaims b = reclaims(0.5, 9);
    Interruption a1 = a.notice(instance("n1", "az1"), T0);
    Interruption a2 = a.notice(instance("n2", "az1"), T0);
    // Another order of nodes: each node's k-th instance still draws the same.
    Interruption b2 = b.notice(instance("n2", "az1"), T0);
    Interruption b1 = b.notice(instance("n1", "az1"), T0);
    assertThat(b1).isEqualTo(a1);
    assertThat(b2).isEqualTo(a2);
    assertThat(a1.noticedAt()).isNotEqualTo(a2.noticedAt());
    assertThat(reclaims(0.5, 10).notice(instance("n1", "az1"), T0)).isNotEqualTo(a1);
    assertThat(reclaims(0, 9).notice(instance("n1", "az1"), T0)).isNull();
  }

  @Test
  void zonesFollowSeededTracesWithoutRepeatsWhileThereAreEnough() {
    List<TraceReclaims.Trace> traces = List.of(TRACE, new TraceReclaims.Trace("u", List.of(0, 1), GAP),
        new TraceReclaims.Trace("v", List.of(3, 3, 3), GAP));
    TraceReclaims a = TraceReclaims.assign(T0, List.of("z2", "z1", "z3"), traces, 1, 0.25, Duration.ofMinutes(2), 5);
    assertThat(TraceReclaims.assign(T0, List.of("z3", "z1", "z2"), traces, 1, 0.25, Duration.ofMinutes(2), 5)
        .describe())
        .isEqualTo(a.describe());
    assertThat(a.assignments()).extracting(TraceReclaims.Assignment::zone).containsExactly("z1", "z2", "z3");
    assertThat(a.assignments()).extracting(x -> x.trace().name()).containsExactlyInAnyOrder("t", "u", "v");
    // A trace that never falls below its most: the hazard is the mean everywhere.
    String flat = a.assignments().stream().filter(x -> x.trace().name().equals("v")).findFirst().orElseThrow().zone();
    assertThat(a.hazardPerHour(flat, T0.plus(Duration.ofHours(5)))).isEqualTo(1.0);
  }

  @Test
  void aTraceFileIsReadAsTheCantBeLateFormatAndAnythingElseIsRefusedNamingIt() {
    TraceReclaims.Trace t = TraceReclaims.Trace.parse("z.json",
        "{\"metadata\": {\"gap_seconds\": 600}, \"data\": [1, 0,\n 3]}");
    assertThat(t.available()).containsExactly(1, 0, 3);
    assertThat(t.gap()).isEqualTo(Duration.ofMinutes(10));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> TraceReclaims.Trace.parse("x.json", "{\"data\":[1]}"))
        .hasMessageStartingWith("x.json: not a spot availability trace");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> TraceReclaims.Trace.parse("y.json",
        "{\"metadata\":{\"gap_seconds\":600},\"data\":[1,two]}"))
        .hasMessage("y.json: tick 2 is 'two', not a whole number of instances");
  }
}
