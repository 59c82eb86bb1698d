package io.squall.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import io.squall.core.spot.Interruption;
import io.squall.core.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SimulatedProviderTest {
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");
  private static final Offering SPOT = SimulatedProviderContractTest.CATALOGUE.get(0);
  private final ManualClock clock = new ManualClock(T0);

  private SimulatedProvider provider(long seed) {
    return new SimulatedProvider(clock, SimulatedProviderContractTest.CATALOGUE, new SplittableRandom(seed))
        .bootLatency(Duration.ofMinutes(3));
  }

  private static LaunchRequest gang(String token, int minCount, String... names) {
    List<NodeLaunch> nodes = new ArrayList<>();
    for (String n : names) {
      nodes.add(new NodeLaunch(new Node(n, 8, "h100", 192, 1, Set.of(), "pg0", NodeState.CLOUD), "http://c", "t"));
    }
    return new LaunchRequest("c", "gpu", nodes, minCount, SPOT, "c-pg0", Map.of(), token);
  }

  @Test
  void spotInstancesLearnTheirReclaimAtLaunchAndSpotTimeIsBilledApart() {
    List<Instant> asked = new ArrayList<>();
    SimulatedProvider p = provider(1).reclaims((instance, launchedAt) -> {
      asked.add(launchedAt);
      return new Interruption(instance.nodeName(), instance.id(),
          Interruption.Source.AWS_METADATA, Interruption.Kind.TERMINATION,
          launchedAt.plusSeconds(600), launchedAt.plusSeconds(720), "test");
    });
    Instance spot = p.launch(gang("t1", 1, "n1")).get(0);
    assertThat(p.interruption(spot.id()).noticedAt()).isEqualTo(T0.plusSeconds(600));
    assertThat(p.interruption(spot.id()).node()).isEqualTo("n1");
    assertThat(p.interruption("sim-unknown")).isNull();
    Offering onDemand = SimulatedProviderContractTest.CATALOGUE.stream()
        .filter(o -> o.capacityType() == CapacityType.ON_DEMAND).findFirst().orElseThrow();
    LaunchRequest g = gang("t2", 1, "n2");
    Instance od = p.launch(new LaunchRequest(g.cluster(), g.partition(), g.nodes(), 1, onDemand, null, Map.of(), "t2"))
        .get(0);
    assertThat(p.interruption(od.id())).isNull(); // on-demand is never taken back
    assertThat(asked).containsExactly(T0);
    clock.advance(Duration.ofHours(1));
    assertThat(p.spotInstanceSeconds()).isEqualTo(3600.0);
    assertThat(p.instanceSeconds()).isEqualTo(7200.0);
  }

  @Test
  void instancesArePendingForTheBootLatencyThenRunningAndBilledPerSecond() {
    SimulatedProvider p = provider(1);
    Instance i = p.launch(gang("t1", 1, "n1")).get(0);
    assertThat(i.state()).isEqualTo(InstanceState.PENDING);
    assertThat(p.bootTime(i.id())).isEqualTo(T0.plus(Duration.ofMinutes(3)));
    clock.advance(Duration.ofMinutes(3).minusMillis(1));
    assertThat(p.list("c")).singleElement().extracting(Instance::state).isEqualTo(InstanceState.PENDING);
    clock.advance(Duration.ofMillis(1));
    assertThat(p.list("c")).singleElement().extracting(Instance::state).isEqualTo(InstanceState.RUNNING);
    assertThat(p.bootTime(i.id())).isEqualTo(T0.plus(Duration.ofMinutes(3)));
    assertThat(p.bootTime("sim-unknown")).isNull();
    clock.advance(Duration.ofMinutes(57));
    p.terminate(i);
    clock.advance(Duration.ofHours(1));
    assertThat(p.instanceSeconds()).isEqualTo(3600.0);
    assertThat(p.billedDollars()).isCloseTo(SPOT.pricePerHour(), org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void aLaunchShortOfItsCountButAtItsMinimumIsAPartialGang() {
    SimulatedProvider p = provider(1).capacity(SPOT, 2);
    assertThat(p.launch(gang("t1", 2, "n1", "n2", "n3"))).extracting(Instance::nodeName).containsExactly("n1", "n2");
    assertThat(p.partialGangInstances()).isEqualTo(2);
    assertThatThrownBy(() -> p.launch(gang("t2", 1, "n4")))
        .isInstanceOfSatisfying(ProviderException.class,
            e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.INSUFFICIENT_CAPACITY));
    assertThat(p.launchCalls()).isEqualTo(2);
    assertThat(p.failedLaunchCalls()).isEqualTo(1);
    assertThat(p.instancesLaunched()).isEqualTo(2);
  }

  @Test
  void spotCapacityFailuresFollowTheSeed() {
    List<Boolean> first = failures(provider(5).spotInsufficientCapacityProbability(0.5));
    List<Boolean> again = failures(provider(5).spotInsufficientCapacityProbability(0.5));
    assertThat(again).isEqualTo(first);
    assertThat(first).contains(true, false);
  }

  private static List<Boolean> failures(SimulatedProvider p) {
    List<Boolean> out = new ArrayList<>();
    for (int k = 0; k < 20; k++) {
      try {
        p.launch(gang("t" + k, 1, "n" + k));
        out.add(false);
      } catch (ProviderException e) {
        out.add(true);
      }
    }
    return out;
  }
}
