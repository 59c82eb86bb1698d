package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.api.fleet.Providers;
import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interruption rate the service's fleet is given for AWS spot offerings, through the call
 * policy ({@code GuardedProvider}): the Spot Instance Advisor's bucket for the type in
 * {@code squall.aws.region}, unless {@code squall.aws.spot-interruptions-per-node-hour} names the
 * type (a key holding a dot, as EC2 type names do); 0 for on-demand.
 */
class AwsSpotInterruptionsWiringTest {
  private static final String A100 = "p4d.24xlarge";

  @TempDir Path dir;

  private static Offering offering(String type, CapacityType capacity) {
    return new Offering(type, AwsCloud.ZONE, capacity, 1.0, Availability.AVAILABLE);
  }

  @Test
  void theFleetsProviderPublishesTheAdvisorsRateOrTheConfiguredOne() throws Exception {
    try (AwsCloud cloud = new AwsCloud()) {
      Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
      s.put("squall.ticks", "manual");
      s.put("squall.aws.spot-interruptions-per-node-hour", Map.of(A100, 0.002));
      try (Controllers.Running c = Controllers.start(s)) {
        NodeProvider provider = c.bean(Providers.class).provider();
        // us-east-1, 2025-06-28: p5.48xlarge is in the >20% bucket
        assertThat(provider.interruptionsPerNodeHour(offering(AwsCloud.TYPE, CapacityType.SPOT))).isEqualTo(0.25 / 730);
        assertThat(provider.interruptionsPerNodeHour(offering(A100, CapacityType.SPOT))).isEqualTo(0.002);
        assertThat(provider.interruptionsPerNodeHour(offering(AwsCloud.TYPE, CapacityType.ON_DEMAND))).isZero();
      }
    }
  }
}
