package io.squall.simulate;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderContract;
import io.squall.core.provider.ProviderException;
import io.squall.core.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;

/** The provider contract in virtual time. */
class SimulatedProviderContractTest extends ProviderContract {
  static final List<Offering> CATALOGUE = List.of(
      new Offering("p5.48xlarge", "use1-az1", CapacityType.SPOT, 30.33, Availability.AVAILABLE),
      new Offering("p5.48xlarge", "use1-az1", CapacityType.ON_DEMAND, 98.32, Availability.AVAILABLE),
      new Offering("p5.48xlarge", "use1-az2", CapacityType.SPOT, 27.69, Availability.AVAILABLE),
      new Offering("p5.48xlarge", "use1-az2", CapacityType.ON_DEMAND, 98.32, Availability.AVAILABLE));

  private SimulatedProvider simulated;

  @Override
  protected NodeProvider newProvider() {
    simulated = new SimulatedProvider(new ManualClock(Instant.parse("2026-11-21T08:00:00Z")), CATALOGUE,
        new SplittableRandom(7)).bootLatency(Duration.ofMinutes(3));
    return simulated;
  }

  @Override
  protected String instanceType() {
    return "p5.48xlarge";
  }

  @Override
  protected void exhaustCapacity(Offering offering) {
    simulated.capacity(offering, 1);
  }

  @Override
  protected void exceedQuota() {
    simulated.failNext(new ProviderException(ProviderException.Kind.QUOTA_EXCEEDED,
        "MaxSpotInstanceCountExceeded: injected"));
  }

  @Override
  protected void throttleNextCall() {
    simulated.failNext(new ProviderException(ProviderException.Kind.THROTTLED, "RequestLimitExceeded: injected"));
  }
}
