package io.squall.providers.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.Offering;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Subnet;

/**
 * One instance launched, listed and terminated against LocalStack's EC2 (its default VPC and
 * subnets, one of its mock images). Skipped where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class AwsProviderLocalStackTest {
  static final String TYPE = "t3.micro";

  @Container
  static final LocalStackContainer LOCALSTACK =
      new LocalStackContainer(DockerImageName.parse("localstack/localstack:4.4")).withServices("ec2");

  @Test
  void launchesListsAndTerminatesOneInstance() {
    StaticCredentialsProvider credentials = StaticCredentialsProvider.create(
        AwsBasicCredentials.create(LOCALSTACK.getAccessKey(), LOCALSTACK.getSecretKey()));
    Map<String, String> subnets = new TreeMap<>();
    String image;
    try (Ec2Client admin = Ec2Client.builder().endpointOverride(LOCALSTACK.getEndpoint())
        .region(Region.of(LOCALSTACK.getRegion())).credentialsProvider(credentials).build()) {
      for (Subnet s : admin.describeSubnets().subnets()) {
        subnets.putIfAbsent(s.availabilityZone(), s.subnetId());
      }
      image = admin.describeImages().images().get(0).imageId();
    }
    AwsSettings settings = AwsSettings.builder(LOCALSTACK.getRegion())
        .endpoint(LOCALSTACK.getEndpoint())
        .credentials(credentials)
        .subnets(subnets)
        .imageId(image)
        .onDemandPrices(Map.of(TYPE, 0.0104))
        .build();
    try (AwsProvider provider = new AwsProvider(settings)) {
      Offering offering = provider.offerings(List.of(TYPE)).stream()
          .filter(o -> o.capacityType() == CapacityType.ON_DEMAND).findFirst().orElseThrow();
      List<Instance> made = provider.launch(AwsProviderTest.gang("localstack-1", offering, 1, null, "cpu-1"));
      assertThat(made).singleElement().satisfies(i -> {
        assertThat(i.id()).startsWith("i-");
        assertThat(i.nodeName()).isEqualTo("cpu-1");
      });
      assertThat(provider.list("c1")).extracting(Instance::nodeName).containsExactly("cpu-1");
      provider.terminate(made.get(0));
      assertThat(provider.list("c1")).extracting(Instance::state)
          .allMatch(s -> s == InstanceState.STOPPING || s == InstanceState.TERMINATED);
    }
  }
}
