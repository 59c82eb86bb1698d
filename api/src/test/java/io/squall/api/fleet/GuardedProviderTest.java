package io.squall.api.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import io.squall.core.provider.SpotPrice;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

class GuardedProviderTest {
  /** Fails list() with the queued errors, then answers; publishes {@code published} for spot. */
  private static final class Failing implements NodeProvider {
    final Deque<ProviderException> errors = new ArrayDeque<>();
    int calls;
    double published;

    @Override
    public String name() {
      return "failing";
    }

    @Override
    public List<Offering> offerings(List<String> instanceTypes) {
      return List.of();
    }

    @Override
    public List<Instance> launch(LaunchRequest request) {
      return List.of();
    }

    @Override
    public void terminate(Instance instance) {}

    @Override
    public List<Instance> list(String cluster) {
      calls++;
      if (!errors.isEmpty()) {
        throw errors.poll();
      }
      return List.of();
    }

    @Override
    public List<SpotPrice> spotPrices(List<String> instanceTypes) {
      return List.of();
    }

    @Override
    public double interruptionsPerNodeHour(Offering offering) {
      return offering.capacityType() == CapacityType.SPOT ? published : 0;
    }

    @Override
    public void close() {}
  }

  private static final GuardedProvider.Settings FAST = new GuardedProvider.Settings(3, Duration.ofMillis(1), 4,
      Duration.ofSeconds(60), 1000);

  @Test
  void throttlingIsRetriedCapacityIsNot() {
    Failing p = new Failing();
    GuardedProvider guarded = new GuardedProvider(p, "r1", FAST);
    p.errors.add(new ProviderException(ProviderException.Kind.THROTTLED, "RequestLimitExceeded"));
    p.errors.add(new ProviderException(ProviderException.Kind.TRANSIENT, "503"));
    assertThat(guarded.list("c")).isEmpty();
    assertThat(p.calls).isEqualTo(3);

    p.errors.add(new ProviderException(ProviderException.Kind.INSUFFICIENT_CAPACITY, "InsufficientInstanceCapacity"));
    assertThatThrownBy(() -> guarded.list("c")).isInstanceOfSatisfying(ProviderException.class,
        e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.INSUFFICIENT_CAPACITY));
    assertThat(p.calls).isEqualTo(4);
  }

  @Test
  void aProviderThatKeepsFailingIsNoLongerCalled() {
    Failing p = new Failing();
    GuardedProvider guarded = new GuardedProvider(p, "r1", FAST);
    for (int i = 0; i < 20; i++) {
      p.errors.add(new ProviderException(ProviderException.Kind.TRANSIENT, "503 Service Unavailable"));
    }
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> guarded.list("c")).isInstanceOf(ProviderException.class);
    }
    int callsWhenOpen = p.calls;
    assertThatThrownBy(() -> guarded.list("c")).isInstanceOfSatisfying(ProviderException.class,
        e -> assertThat(e.getMessage()).contains("circuit open"));
    assertThat(p.calls).isEqualTo(callsWhenOpen);
  }

  @Test
  void thePublishedInterruptionRateIsTheProvidersEvenWithTheCircuitOpen() {
    Failing p = new Failing();
    p.published = 0.25 / 730;
    GuardedProvider guarded = new GuardedProvider(p, "r1", FAST);
    Offering spot = new Offering("p5.48xlarge", "us-east-1a", CapacityType.SPOT, 31.4, Availability.AVAILABLE);
    Offering onDemand = new Offering("p5.48xlarge", "us-east-1a", CapacityType.ON_DEMAND, 98.32, Availability.AVAILABLE);
    assertThat(guarded.interruptionsPerNodeHour(spot)).isEqualTo(0.25 / 730);
    assertThat(guarded.interruptionsPerNodeHour(onDemand)).isZero();

    for (int i = 0; i < 20; i++) {
      p.errors.add(new ProviderException(ProviderException.Kind.TRANSIENT, "503 Service Unavailable"));
    }
    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> guarded.list("c")).isInstanceOf(ProviderException.class);
    }
    assertThatThrownBy(() -> guarded.list("c")).hasMessageContaining("circuit open");
    assertThat(guarded.interruptionsPerNodeHour(spot)).isEqualTo(0.25 / 730);
  }
}
