package io.squall.providers.gcp;

import com.google.api.gax.core.NoCredentialsProvider;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderContract;
import java.util.List;

/** The provider contract against {@link FakeGce} speaking the Compute v1 REST API. */
class GcpProviderContractTest extends ProviderContract {
  static final String PROJECT = "squall-test";
  static final String REGION = "us-central1";
  static final String TYPE = "a3-highgpu-8g";

  private FakeGce fake;

  /** A fake with a3-highgpu-8g in zones a and b (not c) and a provider over it. */
  static FakeGce fake() throws Exception {
    return new FakeGce(PROJECT, REGION).offer("us-central1-a", TYPE).offer("us-central1-b", TYPE)
        .offer("us-central1-c", "n2-standard-8");
  }

  static GcpSettings settings(FakeGce fake) {
    return GcpSettings.builder(PROJECT, REGION, List.of("us-central1-a", "us-central1-b", "us-central1-c"))
        .endpoint(fake.endpoint())
        .credentialsProvider(NoCredentialsProvider.create())
        .sourceImage("projects/squall-test/global/images/family/squall-node")
        .serviceAccountEmail("nodes@squall-test.iam.gserviceaccount.com")
        .build();
  }

  @Override
  protected NodeProvider newProvider() throws Exception {
    fake = fake();
    return new GcpProvider(settings(fake));
  }

  @Override
  protected String instanceType() {
    return TYPE;
  }

  @Override
  protected void exhaustCapacity(Offering offering) {
    fake.capacity(offering.instanceType(), offering.zone(),
        offering.capacityType() == CapacityType.SPOT ? "SPOT" : "STANDARD", 0);
  }

  @Override
  protected void exceedQuota() {
    fake.failNext("bulkInsert", FakeGce.quotaExceeded(REGION));
  }

  @Override
  protected void throttleNextCall() {
    fake.failNext("*", FakeGce.rateLimited());
  }

  @Override
  protected void closeFake() {
    fake.close();
  }
}
