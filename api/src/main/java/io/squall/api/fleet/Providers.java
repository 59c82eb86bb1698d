package io.squall.api.fleet;

import io.squall.api.config.LocalProviderConfig;
import io.squall.api.config.SquallConfig;
import io.squall.core.provider.NodeProvider;
import io.squall.providers.local.LocalProvider;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.util.Set;

/**
 * The one provider this controller uses ({@code squall.provider}), built once and wrapped in the
 * call policy ({@link GuardedProvider}); null with {@code none}, where agents are started
 * elsewhere and simply register.
 */
@Singleton
public final class Providers {
  private final NodeProvider provider;

  public Providers(SquallConfig config, LocalProviderConfig local) {
    NodeProvider raw;
    String region;
    switch (config.getProvider()) {
      case "none" -> {
        raw = null;
        region = "";
      }
      case "local" -> {
        raw = new LocalProvider(config.getDataDir().resolve("nodes").toAbsolutePath(), new LocalProvider.Settings(
            local.getZones(), Set.copyOf(local.getNoCapacityZones()), local.getBootDelay(), LocalProvider.Settings.defaults().jvmArgs()));
        region = "localhost";
      }
      default -> throw new IllegalStateException("squall.provider: unknown provider '" + config.getProvider()
          + "' (use local, aws, gcp or none)");
    }
    provider = raw == null ? null : new GuardedProvider(raw, region, GuardedProvider.Settings.defaults());
  }

  /** The provider, or null when nodes are not this controller's to start. */
  public NodeProvider provider() {
    return provider;
  }

  @PreDestroy
  public void close() {
    if (provider != null) {
      provider.close();
    }
  }
}
