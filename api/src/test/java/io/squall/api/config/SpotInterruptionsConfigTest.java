package io.squall.api.config;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.api.fleet.Providers;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code squall.aws.spot-interruptions-per-node-hour}: a rate that is not a finite number, 0 or
 * more, stops start-up naming its key and instance type, before any cloud is called.
 */
class SpotInterruptionsConfigTest {
  private static AwsProviderConfig aws(Map<String, Double> rates) {
    AwsProviderConfig aws = new AwsProviderConfig();
    aws.setSubnets(Map.of("us-east-1a", "subnet-0aaaaaaaaaaaaaaa1"));
    aws.setImageId("ami-0squall0000000001");
    aws.setSpotInterruptionsPerNodeHour(rates);
    return aws;
  }

  private static void start(AwsProviderConfig aws) {
    SquallConfig config = new SquallConfig();
    config.setProvider("aws");
    config.setControllerUrl("http://10.0.1.5:6820"); // a cloud provider needs it before its rates are read
    new Providers(config, new LocalProviderConfig(), aws, new GcpProviderConfig()).close();
  }

  @Test
  void aNegativeMissingOrNonNumericRateStopsStartUpNamingTheKey() {
    assertThatThrownBy(() -> start(aws(Map.of("p5.48xlarge", -0.001)))).isInstanceOf(IllegalStateException.class)
        .hasMessage("squall.aws.spot-interruptions-per-node-hour.p5.48xlarge: a rate is interruptions per node-hour, "
            + "0 or more, not -0.001");
    assertThatThrownBy(() -> start(aws(Map.of("p5en.48xlarge", Double.NaN))))
        .hasMessage("squall.aws.spot-interruptions-per-node-hour.p5en.48xlarge: a rate is interruptions per node-hour, "
            + "0 or more, not NaN");
    assertThatThrownBy(() -> start(aws(Map.of("p5.48xlarge", Double.POSITIVE_INFINITY))))
        .hasMessageStartingWith("squall.aws.spot-interruptions-per-node-hour.p5.48xlarge: ");
    Map<String, Double> missing = new HashMap<>();
    missing.put("p4d.24xlarge", null);
    assertThatThrownBy(() -> start(aws(missing)))
        .hasMessage("squall.aws.spot-interruptions-per-node-hour.p4d.24xlarge: a rate is interruptions per node-hour, "
            + "0 or more, not empty");
  }
}
