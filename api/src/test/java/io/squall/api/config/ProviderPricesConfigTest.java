package io.squall.api.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.api.fleet.Providers;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Configured prices ({@code squall.aws.on-demand-prices}, {@code squall.gcp.on-demand-prices},
 * {@code squall.gcp.spot-prices}): one that is not a finite number of dollars, 0 or more, stops
 * start-up naming its key and machine type, before any cloud is called.
 */
class ProviderPricesConfigTest {
  private static SquallConfig provider(String name) {
    SquallConfig config = new SquallConfig();
    config.setProvider(name);
    config.setControllerUrl("http://10.0.1.5:6820"); // a cloud provider needs it before its prices are read
    return config;
  }

  private static GcpProviderConfig gcp() {
    GcpProviderConfig gcp = new GcpProviderConfig();
    gcp.setProject("squall-test");
    gcp.setZones(List.of("us-central1-a"));
    gcp.setSourceImage("projects/squall-test/global/images/family/squall-node");
    return gcp;
  }

  private static void start(String provider, AwsProviderConfig aws, GcpProviderConfig gcp) {
    new Providers(provider(provider), new LocalProviderConfig(), aws, gcp).close();
  }

  @Test
  void aNegativeOrNonNumericGcpPriceStopsStartUpNamingTheKey() {
    GcpProviderConfig negative = gcp();
    negative.setOnDemandPrices(Map.of("a3-highgpu-8g", -88.49));
    assertThatThrownBy(() -> start("gcp", new AwsProviderConfig(), negative)).isInstanceOf(IllegalStateException.class)
        .hasMessage("squall.gcp.on-demand-prices.a3-highgpu-8g: a price is US dollars per node-hour, 0 or more, not -88.49");

    GcpProviderConfig nan = gcp();
    nan.setSpotPrices(Map.of("a3-megagpu-8g", Double.NaN));
    assertThatThrownBy(() -> start("gcp", new AwsProviderConfig(), nan))
        .hasMessage("squall.gcp.spot-prices.a3-megagpu-8g: a price is US dollars per node-hour, 0 or more, not NaN");

    GcpProviderConfig infinite = gcp();
    infinite.setSpotPrices(Map.of("a3-megagpu-8g", Double.POSITIVE_INFINITY));
    assertThatThrownBy(() -> start("gcp", new AwsProviderConfig(), infinite))
        .hasMessageStartingWith("squall.gcp.spot-prices.a3-megagpu-8g: ");

    GcpProviderConfig empty = gcp();
    Map<String, Double> missing = new HashMap<>();
    missing.put("a3-highgpu-8g", null);
    empty.setOnDemandPrices(missing);
    assertThatThrownBy(() -> start("gcp", new AwsProviderConfig(), empty))
        .hasMessage("squall.gcp.on-demand-prices.a3-highgpu-8g: a price is US dollars per node-hour, 0 or more, not empty");
  }

  @Test
  void aNegativeAwsPriceStopsStartUpNamingTheKey() {
    AwsProviderConfig aws = new AwsProviderConfig();
    aws.setSubnets(Map.of("us-east-1a", "subnet-0aaaaaaaaaaaaaaa1"));
    aws.setImageId("ami-0squall0000000001");
    aws.setOnDemandPrices(Map.of("p5.48xlarge", -1.0));
    assertThatThrownBy(() -> start("aws", aws, new GcpProviderConfig())).isInstanceOf(IllegalStateException.class)
        .hasMessage("squall.aws.on-demand-prices.p5.48xlarge: a price is US dollars per node-hour, 0 or more, not -1.0");
  }
}
