package io.squall.providers.aws;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeProvider;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import io.squall.core.provider.ProviderException.Kind;
import io.squall.core.provider.SpotPrice;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTopologyRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTopologyResponse;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTypeOfferingsRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTypeOfferingsResponse;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstancesResponse;
import software.amazon.awssdk.services.ec2.model.DescribeSpotPriceHistoryRequest;
import software.amazon.awssdk.services.ec2.model.DescribeSpotPriceHistoryResponse;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.HttpTokensState;
import software.amazon.awssdk.services.ec2.model.InstanceInterruptionBehavior;
import software.amazon.awssdk.services.ec2.model.InstanceMetadataEndpointState;
import software.amazon.awssdk.services.ec2.model.InstanceTopology;
import software.amazon.awssdk.services.ec2.model.InstanceTypeOffering;
import software.amazon.awssdk.services.ec2.model.LaunchTemplateSpecification;
import software.amazon.awssdk.services.ec2.model.LocationType;
import software.amazon.awssdk.services.ec2.model.MarketType;
import software.amazon.awssdk.services.ec2.model.PlacementStrategy;
import software.amazon.awssdk.services.ec2.model.Reservation;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.RunInstancesRequest;
import software.amazon.awssdk.services.ec2.model.RunInstancesResponse;
import software.amazon.awssdk.services.ec2.model.SpotInstanceType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;

/**
 * Squall nodes as EC2 instances, through the AWS SDK for Java v2 {@link Ec2Client}.
 *
 * <p>A launch is one {@code RunInstances} call with {@code MinCount}/{@code MaxCount}, so EC2
 * itself makes it all or nothing, and {@code ClientToken} = the request's idempotency token, so
 * EC2 itself makes it idempotent. The instances are then named after their nodes by launch index.
 * The SDK does not retry: every failure surfaces at once as a {@link ProviderException} whose kind
 * says what to do (see {@link Ec2Errors}), and the caller's one policy retries.
 *
 * <p>Thread safe: besides the (thread-safe) SDK client, the provider holds only the concurrent set
 * of placement groups it made or found and the immutable Spot Instance Advisor snapshot.
 */
public final class AwsProvider implements NodeProvider {
  /** This provider's name in logs and configuration. */
  public static final String NAME = "aws";

  /** The spot prices Squall pays: Linux, in a VPC. */
  static final String PRODUCT_DESCRIPTION = "Linux/UNIX";

  /** EC2 takes at most 64 ASCII characters as a client token. */
  static final int MAX_CLIENT_TOKEN = 64;

  private static final int TOPOLOGY_BATCH = 100;

  private static final Set<String> GONE_CODES = Set.of("InvalidInstanceID.NotFound", "InvalidInstanceID.Malformed");

  private static final List<String> LISTED_STATES =
      List.of("pending", "running", "stopping", "stopped", "shutting-down");

  private final AwsSettings settings;
  private final Ec2Client ec2;
  /** Where the published spot interruption rates come from, unless configured. */
  private final SpotAdvisor advisor;
  /** Placement groups this provider made or found, so each is created once, not once per launch. */
  private final Set<String> placementGroupsMade = ConcurrentHashMap.newKeySet();

  /** A provider with its own EC2 client for {@code settings} (SDK retries off). */
  public AwsProvider(AwsSettings settings) {
    this(settings, client(settings));
  }

  /**
   * A provider on a client the caller built; {@link #close()} closes it. The client should not
   * retry on its own (the caller's one policy retries; see {@link #AwsProvider(AwsSettings)}).
   */
  public AwsProvider(AwsSettings settings, Ec2Client ec2) {
    this.settings = settings;
    this.ec2 = ec2;
    this.advisor = SpotAdvisor.bundled();
  }

  /**
   * The EC2 client for {@code settings}: its region, endpoint override and credentials (the SDK's
   * default chain when none are given), with the SDK's own retries turned off.
   */
  private static Ec2Client client(AwsSettings settings) {
    return AwsClients.build(Ec2Client.builder(), settings.region(), settings.endpoint(), settings.credentials());
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * The zones (with a configured subnet) that sell these types ({@code DescribeInstanceTypeOfferings}),
   * each as an on-demand offering priced from the settings' table and, where EC2 reports a spot
   * price, a spot offering at that price. A spot offering above the configured maximum spot price
   * is {@link Availability#UNAVAILABLE}: its launch would fail with {@code SpotMaxPriceTooLow}.
   */
  @Override
  public List<Offering> offerings(List<String> instanceTypes) {
    if (instanceTypes.isEmpty()) {
      return List.of();
    }
    Set<String> asked = Set.copyOf(instanceTypes);
    DescribeInstanceTypeOfferingsRequest request = DescribeInstanceTypeOfferingsRequest.builder()
        .locationType(LocationType.AVAILABILITY_ZONE)
        .filters(filter("instance-type", asked))
        .build();
    Set<TypeZone> sold = new TreeSet<>();
    call("DescribeInstanceTypeOfferings", () -> {
      for (DescribeInstanceTypeOfferingsResponse page : ec2.describeInstanceTypeOfferingsPaginator(request)) {
        for (InstanceTypeOffering o : page.instanceTypeOfferings()) {
          String type = o.instanceTypeAsString();
          if (asked.contains(type) && settings.subnet(o.location()) != null) {
            sold.add(new TypeZone(type, o.location()));
          }
        }
      }
      return null;
    });
    if (sold.isEmpty()) {
      return List.of();
    }
    Map<TypeZone, SpotPrice> spot = latestSpotPrices(sold.stream().map(TypeZone::type).toList());
    List<Offering> offerings = new ArrayList<>();
    for (TypeZone tz : sold) {
      offerings.add(new Offering(tz.type(), tz.zone(), CapacityType.ON_DEMAND,
          settings.onDemandPrice(tz.type()), Availability.AVAILABLE));
      SpotPrice price = spot.get(tz);
      if (price != null) {
        boolean overCap = settings.maxSpotPrice() != null && price.pricePerHour() > settings.maxSpotPrice();
        offerings.add(new Offering(tz.type(), tz.zone(), CapacityType.SPOT, price.pricePerHour(),
            overCap ? Availability.UNAVAILABLE : Availability.AVAILABLE));
      }
    }
    offerings.sort(Comparator.comparing(Offering::instanceType).thenComparing(Offering::zone)
        .thenComparing(Offering::capacityType));
    return List.copyOf(offerings);
  }

  /**
   * Starts the request's nodes with one {@code RunInstances} (MinCount = {@code minCount},
   * MaxCount = node count, ClientToken = the idempotency token) in the offering's zone and subnet,
   * in the request's cluster placement group (created first if missing), as spot or on-demand,
   * then tags each instance with its node's name by launch index. An EFA instance type
   * ({@link AwsSettings#efaInterfaces(String)}) gets an EFA interface on each network card
   * ({@link EfaInterfaces}), which carry the subnet and security groups.
   *
   * <p>Idempotent: a repeated token gets EC2's first reservation back and re-applies the same node
   * tags, so it returns the first call's instances (in their current state). A token whose
   * instances are all shutting down or terminated (an earlier attempt that was cleaned up) fails
   * with {@link Kind#INVALID}: EC2 will not launch anew under it.
   *
   * @throws ProviderException {@code INSUFFICIENT_CAPACITY}, {@code QUOTA_EXCEEDED} or
   *     {@code PRICE_TOO_HIGH} when EC2 cannot or may not start {@code minCount} instances (nothing
   *     runs then); {@code THROTTLED}/{@code TRANSIENT} to retry with the same token (also when
   *     naming the instances was throttled: they keep running, and the retry names them); any
   *     other failure to name them terminates every instance of the launch before it is rethrown
   */
  @Override
  public List<Instance> launch(LaunchRequest request) {
    Offering offering = request.offering();
    String subnet = settings.subnet(offering.zone());
    if (subnet == null) {
      throw new ProviderException(Kind.INVALID, "RunInstances " + offering.key() + ": no subnet configured for zone "
          + offering.zone());
    }
    if (request.placementGroup() != null) {
      ensurePlacementGroup(request.placementGroup(), request.cluster());
    }
    RunInstancesRequest run = runRequest(request, subnet);
    String operation = "RunInstances " + offering.key() + " x" + request.count();
    RunInstancesResponse response = call(operation, () -> ec2.runInstances(run));
    List<software.amazon.awssdk.services.ec2.model.Instance> started = new ArrayList<>(response.instances());
    started.sort(Comparator.comparing(i -> i.amiLaunchIndex() == null ? Integer.MAX_VALUE : i.amiLaunchIndex()));
    List<String> ids = started.stream().map(software.amazon.awssdk.services.ec2.model.Instance::instanceId).toList();
    if (started.size() < request.minCount()) {
      ProviderException e = new ProviderException(Kind.INSUFFICIENT_CAPACITY, operation + ": EC2 started "
          + started.size() + " of at least " + request.minCount());
      terminateAll(ids, e);
      throw e;
    }
    if (started.stream().allMatch(i -> !Ec2Tags.state(i).alive() || isShuttingDown(i))) {
      throw new ProviderException(Kind.INVALID, operation + ": launch token " + request.idempotencyToken()
          + " was used before and its instances " + ids + " are terminated; launch with a new token");
    }
    try {
      for (int i = 0; i < started.size(); i++) {
        String id = started.get(i).instanceId();
        List<Tag> tags = Ec2Tags.nodeTags(request.nodes().get(i).node().name());
        call("CreateTags " + id, () -> ec2.createTags(r -> r.resources(id).tags(tags)));
      }
    } catch (ProviderException e) {
      if (!e.kind().retryable()) {
        terminateAll(ids, e); // nobody can name them: they would run as no node
      }
      // Else they stay: the caller's retry with the same token gets them back and names them.
      throw e;
    }
    List<Instance> instances = new ArrayList<>(started.size());
    for (int i = 0; i < started.size(); i++) {
      instances.add(new Instance(started.get(i).instanceId(), request.nodes().get(i).node().name(), request.cluster(),
          request.partition(), request.placementGroup(), request.idempotencyToken(), offering,
          Ec2Tags.state(started.get(i))));
    }
    return List.copyOf(instances);
  }

  /**
   * Terminates the instance ({@code TerminateInstances}). An instance EC2 does not know
   * ({@code InvalidInstanceID.NotFound}, {@code .Malformed}) or already terminated counts as done.
   */
  @Override
  public void terminate(Instance instance) {
    try {
      ec2.terminateInstances(r -> r.instanceIds(instance.id()));
    } catch (SdkException e) {
      if (GONE_CODES.contains(Ec2Errors.code(e))) {
        return;
      }
      throw Ec2Errors.translate("TerminateInstances " + instance.id(), e);
    }
  }

  /**
   * The cluster's instances that are pending, running, stopping, stopped or shutting down
   * ({@code DescribeInstances} by the {@code squall:cluster} tag, all pages), read back from their
   * tags, sorted by node name (untagged last) then id.
   */
  @Override
  public List<Instance> list(String cluster) {
    DescribeInstancesRequest request = DescribeInstancesRequest.builder()
        .filters(filter("tag:" + Ec2Tags.CLUSTER, List.of(cluster)), filter("instance-state-name", LISTED_STATES))
        .build();
    List<Instance> out = new ArrayList<>();
    call("DescribeInstances " + Ec2Tags.CLUSTER + "=" + cluster, () -> {
      for (DescribeInstancesResponse page : ec2.describeInstancesPaginator(request)) {
        for (Reservation r : page.reservations()) {
          for (software.amazon.awssdk.services.ec2.model.Instance i : r.instances()) {
            out.add(Ec2Tags.toInstance(i, settings::onDemandPrice));
          }
        }
      }
      return null;
    });
    out.sort(Comparator.comparing(Instance::nodeName, Comparator.nullsLast(Comparator.naturalOrder()))
        .thenComparing(Instance::id));
    return List.copyOf(out);
  }

  /**
   * The latest Linux spot price of each type in each zone with a configured subnet
   * ({@code DescribeSpotPriceHistory} from now), sorted by type then zone.
   */
  @Override
  public List<SpotPrice> spotPrices(List<String> instanceTypes) {
    if (instanceTypes.isEmpty()) {
      return List.of();
    }
    return List.copyOf(latestSpotPrices(instanceTypes).values());
  }

  /**
   * {@code DescribeInstanceTopology}, 100 ids a call. EC2 has a layout only for some types (the
   * p4d, p5 and trn families among them) and only for running instances; the rest are left out.
   */
  @Override
  public Map<String, List<String>> networkNodes(Collection<String> instanceIds) {
    Map<String, List<String>> out = new TreeMap<>();
    List<String> ids = List.copyOf(new LinkedHashSet<>(instanceIds));
    for (int from = 0; from < ids.size(); from += TOPOLOGY_BATCH) {
      List<String> batch = ids.subList(from, Math.min(ids.size(), from + TOPOLOGY_BATCH));
      DescribeInstanceTopologyRequest request = DescribeInstanceTopologyRequest.builder().instanceIds(batch).build();
      call("DescribeInstanceTopology", () -> {
        for (DescribeInstanceTopologyResponse page : ec2.describeInstanceTopologyPaginator(request)) {
          for (InstanceTopology t : page.instances()) {
            out.put(t.instanceId(), List.copyOf(t.networkNodes()));
          }
        }
        return null;
      });
    }
    return out;
  }

  /**
   * For a spot offering, the configured rate of its instance type
   * ({@link AwsSettings#spotInterruptionsPerNodeHour()}), else the Spot Instance Advisor's bucket
   * for that type in this provider's region as a rate ({@link SpotAdvisor}, why it is only a
   * starting point: {@link InterruptionBucket}). The advisor rates a region, not a zone, so every
   * zone of the region gets the same figure. 0 for a type neither lists (unknown: the fleet goes by
   * what it observes) and for on-demand. Calls nothing.
   */
  @Override
  public double interruptionsPerNodeHour(Offering offering) {
    return switch (offering.capacityType()) {
      case ON_DEMAND -> 0;
      case SPOT -> settings.spotInterruptionsPerNodeHour().getOrDefault(offering.instanceType(),
          advisor.interruptionsPerNodeHour(settings.region(), offering.instanceType()));
    };
  }

  /** Closes the EC2 client. Instances keep running: reconciliation owns them. */
  @Override
  public void close() {
    ec2.close();
  }

  private Map<TypeZone, SpotPrice> latestSpotPrices(List<String> instanceTypes) {
    Set<String> asked = Set.copyOf(instanceTypes);
    DescribeSpotPriceHistoryRequest request = DescribeSpotPriceHistoryRequest.builder()
        .productDescriptions(PRODUCT_DESCRIPTION)
        .startTime(Instant.now())
        .filters(filter("instance-type", asked))
        .build();
    Map<TypeZone, SpotPrice> latest = new TreeMap<>();
    call("DescribeSpotPriceHistory", () -> {
      for (DescribeSpotPriceHistoryResponse page : ec2.describeSpotPriceHistoryPaginator(request)) {
        for (software.amazon.awssdk.services.ec2.model.SpotPrice p : page.spotPriceHistory()) {
          String type = p.instanceTypeAsString();
          String zone = p.availabilityZone();
          if (!asked.contains(type) || zone == null || settings.subnet(zone) == null || p.spotPrice() == null) {
            continue;
          }
          Instant since = p.timestamp() == null ? Instant.EPOCH : p.timestamp();
          SpotPrice price = new SpotPrice(type, zone, Double.parseDouble(p.spotPrice()), since);
          latest.merge(new TypeZone(type, zone), price, (a, b) -> b.since().isAfter(a.since()) ? b : a);
        }
      }
      return null;
    });
    return latest;
  }

  private void ensurePlacementGroup(String name, String cluster) {
    if (placementGroupsMade.contains(name)) {
      return; // made (or found) before: one CreatePlacementGroup per group, not one per launch
    }
    try {
      ec2.createPlacementGroup(r -> r.groupName(name).strategy(PlacementStrategy.CLUSTER)
          .tagSpecifications(TagSpecification.builder().resourceType(ResourceType.PLACEMENT_GROUP)
              .tags(Ec2Tags.tag(Ec2Tags.CLUSTER, cluster)).build()));
    } catch (SdkException e) {
      if (!"InvalidPlacementGroup.Duplicate".equals(Ec2Errors.code(e))) {
        throw Ec2Errors.translate("CreatePlacementGroup " + name, e);
      }
    }
    placementGroupsMade.add(name);
  }

  RunInstancesRequest runRequest(LaunchRequest request, String subnet) {
    Offering offering = request.offering();
    List<Tag> tags = Ec2Tags.launchTags(request);
    RunInstancesRequest.Builder b = RunInstancesRequest.builder()
        .instanceType(offering.instanceType())
        .minCount(request.minCount())
        .maxCount(request.count())
        .clientToken(clientToken(request.idempotencyToken()))
        .placement(p -> p.availabilityZone(offering.zone()).groupName(request.placementGroup()))
        .userData(UserData.encoded(request.nodes(), settings.agent()))
        .metadataOptions(m -> m.httpTokens(HttpTokensState.REQUIRED).httpEndpoint(InstanceMetadataEndpointState.ENABLED))
        .tagSpecifications(
            TagSpecification.builder().resourceType(ResourceType.INSTANCE).tags(tags).build(),
            TagSpecification.builder().resourceType(ResourceType.VOLUME).tags(tags).build());
    if (settings.imageId() != null) {
      b.imageId(settings.imageId());
    } else {
      LaunchTemplateSpecification.Builder lt = LaunchTemplateSpecification.builder();
      if (settings.launchTemplate().startsWith("lt-")) {
        lt.launchTemplateId(settings.launchTemplate());
      } else {
        lt.launchTemplateName(settings.launchTemplate());
      }
      b.launchTemplate(lt.version(settings.launchTemplateVersion()).build());
    }
    int efaCards = settings.efaInterfaces(offering.instanceType());
    if (efaCards > 0) {
      // EC2 refuses a top-level subnet or security groups beside network interfaces: the
      // interfaces carry both.
      b.networkInterfaces(EfaInterfaces.of(efaCards, subnet, settings.securityGroupIds()));
    } else {
      b.subnetId(subnet);
      if (!settings.securityGroupIds().isEmpty()) {
        b.securityGroupIds(settings.securityGroupIds());
      }
    }
    if (settings.instanceProfile() != null) {
      String profile = settings.instanceProfile();
      b.iamInstanceProfile(p -> {
        if (profile.startsWith("arn:")) {
          p.arn(profile);
        } else {
          p.name(profile);
        }
      });
    }
    if (settings.keyName() != null) {
      b.keyName(settings.keyName());
    }
    if (offering.capacityType() == CapacityType.SPOT) {
      String maxPrice = settings.maxSpotPrice() == null ? null
          : BigDecimal.valueOf(settings.maxSpotPrice()).toPlainString();
      b.instanceMarketOptions(m -> m.marketType(MarketType.SPOT).spotOptions(s -> s
          .spotInstanceType(SpotInstanceType.ONE_TIME)
          .instanceInterruptionBehavior(InstanceInterruptionBehavior.TERMINATE)
          .maxPrice(maxPrice)));
    }
    return b.build();
  }

  /** The token itself when EC2 takes it (at most 64 printable ASCII characters), else its SHA-256. */
  static String clientToken(String token) {
    if (token.length() <= MAX_CLIENT_TOKEN && token.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      return token;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  /** Best effort: terminates {@code ids}, adding any failure to {@code cause} as suppressed. */
  private void terminateAll(List<String> ids, ProviderException cause) {
    if (ids.isEmpty()) {
      return;
    }
    try {
      ec2.terminateInstances(r -> r.instanceIds(ids));
    } catch (SdkException e) {
      cause.addSuppressed(Ec2Errors.translate("TerminateInstances " + ids, e));
    }
  }

  private static boolean isShuttingDown(software.amazon.awssdk.services.ec2.model.Instance i) {
    return i.state() != null && "shutting-down".equals(i.state().nameAsString());
  }

  private static Filter filter(String name, Collection<String> values) {
    return Filter.builder().name(name).values(values).build();
  }

  private static <T> T call(String operation, Supplier<T> action) {
    try {
      return action.get();
    } catch (SdkException e) {
      throw Ec2Errors.translate(operation, e);
    }
  }

  /** An instance type in a zone, ordered by type then zone. */
  private record TypeZone(String type, String zone) implements Comparable<TypeZone> {
    private static final Comparator<TypeZone> ORDER =
        Comparator.comparing(TypeZone::type).thenComparing(TypeZone::zone);

    @Override
    public int compareTo(TypeZone other) {
      return ORDER.compare(this, other);
    }
  }
}
