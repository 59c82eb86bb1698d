package io.squall.providers.aws;

import io.squall.core.provider.CapacityType;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderContract;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/** The provider contract against {@link FakeEc2} speaking EC2's wire format to the real SDK. */
class AwsProviderContractTest extends ProviderContract {
  static final String TYPE = "p5.48xlarge";

  private FakeEc2 ec2;

  /** A fake selling p5.48xlarge in three zones (spot in two), and settings with subnets in two. */
  static FakeEc2 fake() throws Exception {
    return new FakeEc2()
        .offer(TYPE, "us-east-1a", "us-east-1b", "us-east-1c")
        .offer("m7i.large", "us-east-1a")
        .spotPrice(TYPE, "us-east-1a", 31.4159)
        .spotPrice(TYPE, "us-east-1b", 29.5)
        .spotPrice(TYPE, "us-east-1c", 12.0)
        .spotPrice("m7i.large", "us-east-1a", 0.04);
  }

  static AwsSettings.Builder settings(FakeEc2 ec2) {
    return AwsSettings.builder("us-east-1")
        .endpoint(ec2.endpoint())
        .credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDFAKE", "fake-secret")))
        .subnet("us-east-1a", "subnet-0aaaaaaaaaaaaaaa1")
        .subnet("us-east-1b", "subnet-0bbbbbbbbbbbbbbb2")
        .imageId("ami-0squall0000000001")
        .securityGroupIds(java.util.List.of("sg-0squall000000001"));
  }

  @Override
  protected NodeProvider newProvider() throws Exception {
    ec2 = fake();
    return new AwsProvider(settings(ec2).build());
  }

  @Override
  protected String instanceType() {
    return TYPE;
  }

  @Override
  protected void exhaustCapacity(Offering offering) {
    ec2.capacity(offering.instanceType(), offering.zone(),
        offering.capacityType() == CapacityType.SPOT ? "spot" : "on-demand", 0);
  }

  @Override
  protected void exceedQuota() {
    ec2.instanceLimit("spot", 0).instanceLimit("on-demand", 0);
  }

  @Override
  protected void throttleNextCall() {
    ec2.failNext(null, 503, "RequestLimitExceeded", "Request limit exceeded.");
  }

  @Override
  protected void closeFake() {
    ec2.close();
  }
}
