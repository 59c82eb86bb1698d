package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's {@code squall.aws.on-demand-prices} against {@link AwsCloud}: a configured price
 * replaces that instance type's built-in one (the key holds a dot, as EC2 type names do) and the
 * other built-in prices stay; the fleet records what the provider offers. On a manual clock:
 * one tick lists the offerings.
 */
class AwsPricesWiringTest {
  private static final String A100 = "p4d.24xlarge";

  @TempDir Path dir;

  @Test
  void aConfiguredPriceGoesOverTheBuiltInTableAndReachesTheOfferings() throws Exception {
    try (AwsCloud cloud = new AwsCloud()) {
      cloud.ec2.offer(A100, AwsCloud.ZONE);
      Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
      s.put("squall.ticks", "manual");
      s.put("squall.partitions.gpu.instance-types", List.of(AwsCloud.TYPE, A100));
      s.put("squall.aws.on-demand-prices", Map.of(AwsCloud.TYPE, 90.5));
      try (Controllers.Running c = Controllers.start(s)) {
        ManualTime.of(c).tick(); // the fleet lists its partitions' offerings and records their prices
        Map<String, Double> onDemand = new TreeMap<>();
        new Http(c.url()).get("alice-token", "/v1/prices").json().get("prices").forEach(p -> {
          if (p.get("offering").asText().endsWith("/ON_DEMAND")) {
            onDemand.put(p.get("offering").asText(), p.get("usd_per_hour").asDouble());
          }
        });
        assertThat(onDemand).containsOnly(
            entry(AwsCloud.TYPE + "/" + AwsCloud.ZONE + "/ON_DEMAND", 90.5), // configured
            entry(A100 + "/" + AwsCloud.ZONE + "/ON_DEMAND", 32.7726)); // built in
      }
    }
  }
}
