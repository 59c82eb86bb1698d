package io.squall.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.squall.providers.aws.FakeEc2;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * EFA launches from configuration: the provider's built-in network card count for p5.48xlarge,
 * or {@code squall.aws.efa-interfaces} over it (a key holding a dot, as EC2 type names do), and a
 * bad count stopping start-up naming its key. On a manual clock against {@link AwsCloud}.
 */
class AwsEfaWiringTest {
  @TempDir Path dir;

  private FakeEc2.Request launchOneNode(AwsCloud cloud, Map<String, Object> s) throws Exception {
    s.put("squall.ticks", "manual");
    try (Controllers.Running c = Controllers.start(s)) {
      new Http(c.url()).submit("#!/bin/bash\n#SBATCH -N 1 --gres=gpu:8 --output=" + dir.resolve("out") + "\nhostname\n");
      ManualTime.of(c).allocateAndLaunch(Duration.ofMillis(200));
      List<FakeEc2.Request> calls = cloud.ec2.requests("RunInstances");
      assertThat(calls).hasSize(1);
      return calls.get(0);
    }
  }

  private static int interfaces(FakeEc2.Request run) {
    int n = 0;
    while (run.params().containsKey("NetworkInterface." + (n + 1) + ".DeviceIndex")) {
      n++;
    }
    return n;
  }

  @Test
  void aP5NodeLaunchesWithAnEfaInterfaceOnEachOfItsNetworkCards() throws Exception {
    try (AwsCloud cloud = new AwsCloud()) {
      FakeEc2.Request run = launchOneNode(cloud, cloud.settings(dir.resolve("data"), "cloud-[1-2]"));
      assertThat(interfaces(run)).isEqualTo(32);
      assertThat(run.params()).containsEntry("NetworkInterface.1.SubnetId", "subnet-0aaaaaaaaaaaaaaa1")
          .doesNotContainKey("SubnetId");
    }
  }

  @Test
  void theConfiguredCountGoesOverTheBuiltInOne() throws Exception {
    try (AwsCloud cloud = new AwsCloud()) {
      Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
      s.put("squall.aws.efa-interfaces", Map.of(AwsCloud.TYPE, 0));
      FakeEc2.Request run = launchOneNode(cloud, s);
      assertThat(interfaces(run)).isZero();
      assertThat(run.params()).containsEntry("SubnetId", "subnet-0aaaaaaaaaaaaaaa1");
    }
  }

  @Test
  void aNegativeCountStopsStartUpNamingTheKey() throws Exception {
    try (AwsCloud cloud = new AwsCloud()) {
      Map<String, Object> s = cloud.settings(dir.resolve("data"), "cloud-[1-2]");
      s.put("squall.aws.efa-interfaces", Map.of(AwsCloud.TYPE, -2));
      Throwable refused = catchThrowable(() -> Controllers.start(s).close());
      assertThat(refused).as("the controller started").isNotNull();
      StringBuilder all = new StringBuilder();
      for (Throwable t = refused; t != null; t = t.getCause()) {
        all.append(t.getMessage()).append('\n');
      }
      assertThat(all.toString()).contains("squall.aws.efa-interfaces.p5.48xlarge: a count of network cards to give"
          + " an EFA interface, 0 (no EFA) or more, not -2");
    }
  }
}
