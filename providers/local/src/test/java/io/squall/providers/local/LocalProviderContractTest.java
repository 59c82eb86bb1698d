package io.squall.providers.local;

import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderContract;
import io.squall.core.provider.ProviderException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The provider contract on real agent processes (they find no controller, which the contract does not need). */
class LocalProviderContractTest extends ProviderContract {
  @TempDir Path base;
  private LocalProvider local;

  @Override
  protected NodeProvider newProvider() {
    local = new LocalProvider(base);
    return local;
  }

  @Override
  protected String instanceType() {
    return LocalProvider.INSTANCE_TYPE;
  }

  @Override
  protected void exhaustCapacity(Offering offering) {
    local.failNextLaunch(new ProviderException(ProviderException.Kind.INSUFFICIENT_CAPACITY,
        "InsufficientInstanceCapacity: injected"));
  }

  @Override
  protected void exceedQuota() {
    local.failNextLaunch(new ProviderException(ProviderException.Kind.QUOTA_EXCEEDED, "quota: injected"));
  }

  @Override
  protected void throttleNextCall() {
    local.failNextLaunch(new ProviderException(ProviderException.Kind.THROTTLED, "throttled: injected"));
  }
}
