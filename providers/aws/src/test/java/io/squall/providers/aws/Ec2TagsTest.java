package io.squall.providers.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.Offering;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.model.InstanceLifecycleType;

class Ec2TagsTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"pending, PENDING", "running, RUNNING", "stopping, STOPPING", "stopped, STOPPING",
      "shutting-down, STOPPING", "terminated, TERMINATED", "some-new-state, PENDING"})
  void ec2StatesFold(String ec2State, InstanceState squall) {
    software.amazon.awssdk.services.ec2.model.Instance i = software.amazon.awssdk.services.ec2.model.Instance.builder()
        .instanceId("i-0123456789abcdef0").state(s -> s.name(ec2State)).build();
    assertThat(Ec2Tags.state(i)).isEqualTo(squall);
  }

  @Test
  void anInstanceIsReadBackFromItsTags() {
    software.amazon.awssdk.services.ec2.model.Instance ec2 = software.amazon.awssdk.services.ec2.model.Instance.builder()
        .instanceId("i-0123456789abcdef0").instanceType("p5.48xlarge").placement(p -> p.availabilityZone("us-east-1a"))
        .state(s -> s.name("running"))
        .tags(Ec2Tags.toTags(Map.of("squall:node", "gpu-1", "squall:cluster", "c", "squall:partition", "gpu",
            "squall:placement-group", "pg", "squall:launch", "t-1")))
        .build();
    Instance on = Ec2Tags.toInstance(ec2, type -> 98.32);
    assertThat(on).isEqualTo(new Instance("i-0123456789abcdef0", "gpu-1", "c", "gpu", "pg", "t-1",
        new Offering("p5.48xlarge", "us-east-1a", CapacityType.ON_DEMAND, 98.32, Availability.AVAILABLE),
        InstanceState.RUNNING));
    Instance spot = Ec2Tags.toInstance(ec2.toBuilder().instanceLifecycle(InstanceLifecycleType.SPOT).tags(
        java.util.List.of()).build(), type -> 98.32);
    assertThat(spot.offering().capacityType()).isEqualTo(CapacityType.SPOT);
    assertThat(spot.offering().pricePerHour()).isZero();
    assertThat(spot.nodeName()).isNull();
  }

  @Test
  void squallTagsWinOverRequestTags() {
    LaunchRequest r = new LaunchRequest("c", "gpu", AwsProviderTest.gang("t", AwsProviderTest.SPOT_A, "n").nodes(),
        1, AwsProviderTest.SPOT_A, null, Map.of("squall:cluster", "evil", "Name", "mine"), "t");
    Map<String, String> tags = Ec2Tags.asMap(Ec2Tags.launchTags(r));
    assertThat(tags).containsEntry("squall:cluster", "c").containsEntry("Name", "mine")
        .containsEntry("squall:launch", "t").doesNotContainKey("squall:placement-group");
  }
}
