package io.squall.providers.aws;

import io.squall.core.provider.AgentBootstrap;
import io.squall.core.provider.NodeAgent;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;

/**
 * Where and how {@link AwsProvider} launches instances. Build one with {@link #builder(String)}.
 *
 * @param region the AWS region, e.g. {@code us-east-1}
 * @param endpoint an endpoint override (a fake EC2, LocalStack); null for the region's endpoint
 * @param credentials the credentials; null for the SDK's {@link DefaultCredentialsProvider} chain
 * @param subnets the subnet to launch into per availability zone; only these zones are offered
 * @param imageId the AMI to launch; null when a launch template is given
 * @param launchTemplate a launch template id ({@code lt-...}) or name; null when an AMI is given.
 *     The template may carry image, security groups, profile and key; the settings here override it
 * @param launchTemplateVersion the template version ({@code $Default}, {@code $Latest}, {@code 3});
 *     null for the template's default
 * @param securityGroupIds security groups for the instances' network interface; may be empty
 * @param instanceProfile an IAM instance profile name, or its ARN (starting {@code arn:}); null for none
 * @param keyName an EC2 key pair name; null for none
 * @param agent how the machine starts the Squall agent, and where it fetches it from when the image lacks it
 * @param maxSpotPrice the highest spot price to pay in USD per hour; null for EC2's default (the
 *     on-demand price)
 * @param onDemandPrices on-demand USD per hour by instance type (EC2 has no price API); types not
 *     in it are offered at price 0 (unknown)
 * @param spotInterruptionsPerNodeHour interruptions per node-hour to publish for spot offerings of
 *     these instance types instead of the Spot Instance Advisor's bucket ({@link SpotAdvisor});
 *     empty by default
 * @param efaInterfaces network cards given an EFA interface at launch, by instance type ({@link
 *     #DEFAULT_EFA_INTERFACES} with configured counts over it); a type not in it, or at 0, launches
 *     with one plain interface
 */
public record AwsSettings(String region, URI endpoint, AwsCredentialsProvider credentials, Map<String, String> subnets,
    String imageId, String launchTemplate, String launchTemplateVersion, List<String> securityGroupIds,
    String instanceProfile, String keyName, NodeAgent agent, Double maxSpotPrice,
    Map<String, Double> onDemandPrices, Map<String, Double> spotInterruptionsPerNodeHour,
    Map<String, Integer> efaInterfaces) {


  /**
   * The built-in on-demand price table, USD per hour in us-east-1, from the SkyPilot catalog rows
   * shipped as {@code simulator/src/main/resources/data/aws-p4d-p5-prices.csv} (column {@code Price};
   * Apache-2.0): p4d.24xlarge (8 A100 40 GB) 32.7726, p4de.24xlarge (8 A100 80 GB) 40.96575,
   * p5.48xlarge (8 H100) 98.32 and p5en.48xlarge (8 H200) 84.8. p5e.48xlarge (8 H200) is not in
   * it: the catalog gives it no on-demand price in any region, so it is offered at 0 (unknown)
   * unless configured. Prices change and differ per region:
   * {@link Builder#onDemandPrice(String, double)} overrides one or adds a type.
   */
  public static final Map<String, Double> DEFAULT_ON_DEMAND_PRICES = Map.of(
      "p4d.24xlarge", 32.7726,
      "p4de.24xlarge", 40.96575,
      "p5.48xlarge", 98.32,
      "p5en.48xlarge", 84.8);

  /**
   * The network cards of the EFA instance types Squall's GPU partitions use (EC2 User Guide,
   * "Network cards" and "Maximize network bandwidth ... with multiple network cards"): a launch of
   * one of them gets an EFA interface on every card ({@link EfaInterfaces}). p4d.24xlarge and
   * p4de.24xlarge have 4 cards, p5.48xlarge and p5e.48xlarge 32, p5en.48xlarge 16.
   * {@link Builder#efaInterfaces(String, int)} changes a count, adds a type or (0) turns EFA off.
   */
  public static final Map<String, Integer> DEFAULT_EFA_INTERFACES = Map.of(
      "p4d.24xlarge", 4,
      "p4de.24xlarge", 4,
      "p5.48xlarge", 32,
      "p5e.48xlarge", 32,
      "p5en.48xlarge", 16);

  public AwsSettings {
    Objects.requireNonNull(region, "region");
    subnets = Map.copyOf(subnets);
    securityGroupIds = List.copyOf(securityGroupIds);
    onDemandPrices = Map.copyOf(onDemandPrices);
    spotInterruptionsPerNodeHour = Map.copyOf(spotInterruptionsPerNodeHour);
    efaInterfaces = Map.copyOf(efaInterfaces);
    if (subnets.isEmpty()) {
      throw new IllegalArgumentException("aws: at least one zone needs a subnet");
    }
    if ((imageId == null) == (launchTemplate == null)) {
      throw new IllegalArgumentException("aws: give exactly one of an image id and a launch template");
    }
    Objects.requireNonNull(agent, "agent");
    if (maxSpotPrice != null && !(maxSpotPrice > 0)) {
      throw new IllegalArgumentException("aws: max spot price must be > 0");
    }
    onDemandPrices.forEach((type, price) -> {
      if (!(price >= 0) || price.isInfinite()) {
        throw new IllegalArgumentException("aws: on-demand price of " + type + " must be a finite number >= 0");
      }
    });
    spotInterruptionsPerNodeHour.forEach((type, rate) -> {
      if (!(rate >= 0) || rate.isInfinite()) {
        throw new IllegalArgumentException("aws: spot interruptions per node-hour of " + type
            + " must be a finite number >= 0");
      }
    });
    efaInterfaces.forEach((type, cards) -> {
      if (cards < 0) {
        throw new IllegalArgumentException("aws: efa-interfaces of " + type + " must be a count of network cards,"
            + " 0 (no EFA) or more, not " + cards);
      }
    });
  }

  /** Settings for {@code region}, to be completed with subnets and an image or launch template. */
  public static Builder builder(String region) {
    return new Builder(region);
  }

  /** The subnet of {@code zone}, or null when this provider does not launch there. */
  public String subnet(String zone) {
    return subnets.get(zone);
  }

  /** The on-demand price of {@code instanceType} in USD per hour, 0 when unknown. */
  public double onDemandPrice(String instanceType) {
    return onDemandPrices.getOrDefault(instanceType, 0.0);
  }

  /** How many network cards a launch of {@code instanceType} gives an EFA interface; 0: none, one plain interface. */
  public int efaInterfaces(String instanceType) {
    return efaInterfaces.getOrDefault(instanceType, 0);
  }

  /** Fluent construction of {@link AwsSettings}; every setter returns this builder. */
  public static final class Builder {
    private final String region;
    private URI endpoint;
    private AwsCredentialsProvider credentials;
    private final Map<String, String> subnets = new TreeMap<>();
    private String imageId;
    private String launchTemplate;
    private String launchTemplateVersion;
    private List<String> securityGroupIds = List.of();
    private String instanceProfile;
    private String keyName;
    private String agentCommand = AgentBootstrap.DEFAULT_AGENT_COMMAND;
    private String agentArchiveUrl;
    private String controllerCa;
    private Double maxSpotPrice;
    private final Map<String, Double> onDemandPrices = new TreeMap<>(DEFAULT_ON_DEMAND_PRICES);
    private final Map<String, Double> spotInterruptionsPerNodeHour = new TreeMap<>();
    private final Map<String, Integer> efaInterfaces = new TreeMap<>(DEFAULT_EFA_INTERFACES);

    private Builder(String region) {
      this.region = region;
    }

    public Builder endpoint(URI endpoint) {
      this.endpoint = endpoint;
      return this;
    }

    public Builder credentials(AwsCredentialsProvider credentials) {
      this.credentials = credentials;
      return this;
    }

    /** Launch into {@code subnetId} in {@code zone}; call once per zone. */
    public Builder subnet(String zone, String subnetId) {
      subnets.put(Objects.requireNonNull(zone, "zone"), Objects.requireNonNull(subnetId, "subnetId"));
      return this;
    }

    public Builder subnets(Map<String, String> subnetsByZone) {
      subnets.putAll(subnetsByZone);
      return this;
    }

    public Builder imageId(String imageId) {
      this.imageId = imageId;
      return this;
    }

    /** A launch template id ({@code lt-...}) or name, and its version (null for its default). */
    public Builder launchTemplate(String idOrName, String version) {
      this.launchTemplate = idOrName;
      this.launchTemplateVersion = version;
      return this;
    }

    public Builder securityGroupIds(List<String> ids) {
      this.securityGroupIds = List.copyOf(ids);
      return this;
    }

    public Builder instanceProfile(String nameOrArn) {
      this.instanceProfile = nameOrArn;
      return this;
    }

    public Builder keyName(String keyName) {
      this.keyName = keyName;
      return this;
    }

    public Builder agentCommand(String agentCommand) {
      this.agentCommand = agentCommand;
      return this;
    }

    /** Where a machine whose image lacks the agent fetches its archive at boot; null: the image has it. */
    public Builder agentArchiveUrl(String url) {
      this.agentArchiveUrl = url;
      return this;
    }

    /** The PEM certificates the nodes trust for the controller's HTTPS; null: the JDK's CAs. */
    public Builder controllerCa(String pem) {
      this.controllerCa = pem;
      return this;
    }

    public Builder maxSpotPrice(Double maxSpotPrice) {
      this.maxSpotPrice = maxSpotPrice;
      return this;
    }

    /** Replaces the whole on-demand price table (default {@link #DEFAULT_ON_DEMAND_PRICES}). */
    public Builder onDemandPrices(Map<String, Double> prices) {
      onDemandPrices.clear();
      onDemandPrices.putAll(prices);
      return this;
    }

    /**
     * Sets the on-demand price of {@code instanceType} in USD per hour over the table so far:
     * it replaces the built-in price of a listed type and adds any other; the rest stay.
     */
    public Builder onDemandPrice(String instanceType, double usdPerHour) {
      onDemandPrices.put(Objects.requireNonNull(instanceType, "instanceType"), usdPerHour);
      return this;
    }

    /**
     * Publishes {@code perNodeHour} interruptions per node-hour for spot {@code instanceType} in
     * place of the Spot Instance Advisor's bucket: for a type the advisor rates wrongly here, or
     * does not list.
     */
    public Builder spotInterruptionsPerNodeHour(String instanceType, double perNodeHour) {
      spotInterruptionsPerNodeHour.put(Objects.requireNonNull(instanceType, "instanceType"), perNodeHour);
      return this;
    }

    /**
     * Gives a launch of {@code instanceType} an EFA interface on each of {@code networkCards}
     * cards, over the built-in table ({@link #DEFAULT_EFA_INTERFACES}): for a type it lacks, a
     * different count, or 0 for one plain interface (an image without the EFA driver).
     */
    public Builder efaInterfaces(String instanceType, int networkCards) {
      efaInterfaces.put(Objects.requireNonNull(instanceType, "instanceType"), networkCards);
      return this;
    }

    public AwsSettings build() {
      return new AwsSettings(region, endpoint, credentials, subnets, imageId, launchTemplate, launchTemplateVersion,
          securityGroupIds, instanceProfile, keyName, new NodeAgent(agentCommand, agentArchiveUrl, controllerCa), maxSpotPrice, onDemandPrices,
          spotInterruptionsPerNodeHour, efaInterfaces);
    }
  }
}
