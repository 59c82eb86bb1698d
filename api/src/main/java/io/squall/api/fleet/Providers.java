package io.squall.api.fleet;

import com.google.api.gax.core.NoCredentialsProvider;
import io.squall.api.config.AwsProviderConfig;
import io.squall.api.config.GcpProviderConfig;
import io.squall.api.config.LocalProviderConfig;
import io.squall.api.config.SquallConfig;
import io.squall.core.provider.NodeProvider;
import io.squall.providers.aws.AwsProvider;
import io.squall.providers.aws.AwsSettings;
import io.squall.providers.gcp.GcpProvider;
import io.squall.providers.gcp.GcpSettings;
import io.squall.providers.local.LocalProvider;
import jakarta.annotation.PreDestroy;
import io.micronaut.context.annotation.Value;
import io.micronaut.context.exceptions.ConfigurationException;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.net.URI;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The one provider this controller uses ({@code squall.provider}), built once and wrapped in the
 * call policy ({@link GuardedProvider}); null with {@code none}, where agents are started
 * elsewhere and simply register.
 */
@Singleton
public final class Providers {
  private final NodeProvider provider;
  private final ControllerUrl controllerUrl;

  public Providers(SquallConfig config, LocalProviderConfig local, AwsProviderConfig aws, GcpProviderConfig gcp) {
    this(config, local, aws, gcp, "");
  }

  /**
   * @param nodeCa {@code squall.tls.node-ca}: a PEM file of the CA launched nodes trust for this
   *     controller's HTTPS (its content goes into their user data); blank for the JDK's CAs
   */
  @Inject
  public Providers(SquallConfig config, LocalProviderConfig local, AwsProviderConfig aws, GcpProviderConfig gcp,
      @Value("${squall.tls.node-ca:}") String nodeCa) {
    controllerUrl = new ControllerUrl(config);
    String controllerCa = nodeCa(nodeCa);
    NodeProvider raw;
    String region;
    switch (config.getProvider()) {
      case "none" -> {
        raw = null;
        region = "";
      }
      case "local" -> {
        price("squall.local.on-demand-price", local.getOnDemandPrice());
        price("squall.local.spot-price", local.getSpotPrice());
        raw = new LocalProvider(config.getDataDir().resolve("nodes").toAbsolutePath(), local.settings(LocalProvider.Settings.defaults().jvmArgs()));
        region = "localhost";
      }
      case "aws" -> {
        raw = new AwsProvider(awsSettings(aws, controllerCa));
        region = aws.getRegion();
      }
      case "gcp" -> {
        raw = new GcpProvider(gcpSettings(gcp, controllerCa));
        region = gcp.getRegion();
      }
      default -> throw new IllegalStateException("squall.provider: unknown provider '" + config.getProvider()
          + "' (use local, aws, gcp or none)");
    }
    provider = raw == null ? null : new GuardedProvider(raw, region, GuardedProvider.Settings.defaults());
  }

  private static AwsSettings awsSettings(AwsProviderConfig c, String controllerCa) {
    AwsSettings.Builder b = AwsSettings.builder(c.getRegion())
        .subnets(c.getSubnets())
        .securityGroupIds(c.getSecurityGroupIds())
        .agentCommand(c.getAgentCommand())
        .agentArchiveUrl(c.getAgentArchiveUrl())
        .controllerCa(controllerCa)
        .maxSpotPrice(c.getMaxSpotPrice());
    if (c.getEndpoint() != null) {
      b.endpoint(URI.create(c.getEndpoint()));
    }
    if (c.getImageId() != null) {
      b.imageId(c.getImageId());
    }
    if (c.getLaunchTemplate() != null) {
      b.launchTemplate(c.getLaunchTemplate(), c.getLaunchTemplateVersion());
    }
    if (c.getInstanceProfile() != null) {
      b.instanceProfile(c.getInstanceProfile());
    }
    if (c.getKeyName() != null) {
      b.keyName(c.getKeyName());
    }
    // Configured prices go over the built-in table rather than replace it, so naming one type
    // does not leave the others unknown.
    prices("squall.aws.on-demand-prices", c.getOnDemandPrices(), b::onDemandPrice);
    interruptionRates("squall.aws.spot-interruptions-per-node-hour", c.getSpotInterruptionsPerNodeHour(),
        b::spotInterruptionsPerNodeHour);
    efaInterfaces("squall.aws.efa-interfaces", c.getEfaInterfaces(), b::efaInterfaces);
    try {
      return b.build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new IllegalStateException("squall.aws: " + e.getMessage(), e);
    }
  }

  private static GcpSettings gcpSettings(GcpProviderConfig c, String controllerCa) {
    if (c.getProject() == null || c.getZones().isEmpty()) {
      throw new IllegalStateException("squall.gcp: set project and zones (and source-image)");
    }
    GcpSettings.Builder b = GcpSettings.builder(c.getProject(), c.getRegion(), c.getZones())
        .network(c.getNetwork(), c.getSubnetwork())
        .agentCommand(c.getAgentCommand())
        .agentArchiveUrl(c.getAgentArchiveUrl())
        .controllerCa(controllerCa);
    prices("squall.gcp.on-demand-prices", c.getOnDemandPrices(), b::onDemandPrice);
    prices("squall.gcp.spot-prices", c.getSpotPrices(), b::spotPrice);
    if (c.getSourceImage() != null) {
      b.sourceImage(c.getSourceImage());
    }
    if (c.getEndpoint() != null) {
      b.endpoint(c.getEndpoint());
      if (c.getEndpoint().startsWith("http://")) {
        // A plaintext endpoint is an emulator or a fake on this machine: no Google credentials.
        b.credentialsProvider(NoCredentialsProvider.create());
      }
    }
    if (c.getServiceAccountEmail() != null) {
      b.serviceAccountEmail(c.getServiceAccountEmail());
    }
    try {
      return b.build();
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new IllegalStateException("squall.gcp: " + e.getMessage(), e);
    }
  }

  /** The CA file's content, read once at start-up; null when none is set. */
  private static String nodeCa(String file) {
    if (file == null || file.isBlank()) {
      return null;
    }
    try {
      String pem = Files.readString(Path.of(file), StandardCharsets.US_ASCII);
      if (!pem.contains("-----BEGIN CERTIFICATE-----")) {
        throw new ConfigurationException("squall.tls.node-ca: " + file + " holds no PEM certificate"
            + " (expected -----BEGIN CERTIFICATE-----)");
      }
      return pem;
    } catch (IOException | java.io.UncheckedIOException e) {
      throw new ConfigurationException("squall.tls.node-ca: cannot read " + file + ": " + e.getMessage());
    }
  }

  /** The controller's address as the nodes this provider starts reach it. */
  public ControllerUrl controllerUrl() {
    return controllerUrl;
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

  /** Refuses any configured price under {@code key} (one per type, {@code key.TYPE}) that is missing or bad, else hands each on. */
  private static void prices(String key, Map<String, Double> byType, BiConsumer<String, Double> use) {
    byType.forEach((type, usdPerHour) -> {
      String entry = key + "." + type;
      if (usdPerHour == null) {
        throw new IllegalStateException(entry + ": a price is US dollars per node-hour, 0 or more, not empty");
      }
      price(entry, usdPerHour);
      use.accept(type, usdPerHour);
    });
  }

  /**
   * Refuses any configured interruption rate under {@code key} (one per type, {@code key.TYPE})
   * that is missing, negative or not a finite number, naming its key, else hands each on.
   */
  private static void interruptionRates(String key, Map<String, Double> byType, BiConsumer<String, Double> use) {
    byType.forEach((type, perNodeHour) -> {
      if (perNodeHour == null || !(perNodeHour >= 0) || perNodeHour.isInfinite()) {
        throw new IllegalStateException(key + "." + type + ": a rate is interruptions per node-hour, 0 or more, not "
            + (perNodeHour == null ? "empty" : perNodeHour));
      }
      use.accept(type, perNodeHour);
    });
  }

  /**
   * Refuses any configured EFA interface count under {@code key} (one per type, {@code key.TYPE})
   * that is missing or negative, naming its key, else hands each on.
   */
  private static void efaInterfaces(String key, Map<String, Integer> byType, BiConsumer<String, Integer> use) {
    byType.forEach((type, cards) -> {
      if (cards == null || cards < 0) {
        throw new IllegalStateException(key + "." + type + ": a count of network cards to give an EFA interface,"
            + " 0 (no EFA) or more, not " + (cards == null ? "empty" : cards));
      }
      use.accept(type, cards);
    });
  }

  /** Refuses a price that is not a finite number of US dollars per hour >= 0, naming its key. */
  private static void price(String key, Double usdPerHour) {
    if (usdPerHour != null && (!(usdPerHour >= 0) || usdPerHour.isInfinite())) {
      throw new IllegalStateException(key + ": a price is US dollars per node-hour, 0 or more, not " + usdPerHour);
    }
  }
}
