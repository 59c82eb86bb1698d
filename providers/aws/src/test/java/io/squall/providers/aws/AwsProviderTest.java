package io.squall.providers.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Instance;
import io.squall.core.provider.InstanceState;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import io.squall.core.provider.Offering;
import io.squall.core.provider.ProviderException;
import io.squall.core.provider.ProviderException.Kind;
import io.squall.core.provider.SpotPrice;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What AwsProvider sends EC2 and how it reads the answers, against {@link FakeEc2}. */
class AwsProviderTest {
  static final String TYPE = AwsProviderContractTest.TYPE;
  static final Offering SPOT_A = new Offering(TYPE, "us-east-1a", CapacityType.SPOT, 31.4159, Availability.AVAILABLE);
  static final Offering ON_DEMAND_B =
      new Offering(TYPE, "us-east-1b", CapacityType.ON_DEMAND, 98.32, Availability.AVAILABLE);

  private FakeEc2 ec2;
  private AwsProvider provider;

  @BeforeEach
  void start() throws Exception {
    ec2 = AwsProviderContractTest.fake();
    provider = new AwsProvider(AwsProviderContractTest.settings(ec2).build());
  }

  @AfterEach
  void stop() {
    provider.close();
    ec2.close();
  }

  private AwsProvider provider(Consumer<AwsSettings.Builder> customize) {
    AwsSettings.Builder b = AwsProviderContractTest.settings(ec2);
    customize.accept(b);
    provider.close();
    provider = new AwsProvider(b.build());
    return provider;
  }

  static LaunchRequest gang(String token, Offering offering, int minCount, String placementGroup, String... names) {
    List<NodeLaunch> nodes = new ArrayList<>();
    for (String name : names) {
      Node node = new Node(name, 8, "h100", 192, 2_000_000, Set.of("ib"), placementGroup, NodeState.CLOUD);
      nodes.add(new NodeLaunch(node, "https://ctl.example:6820", "tok-" + name));
    }
    return new LaunchRequest("c1", "gpu", nodes, minCount, offering, placementGroup, Map.of("team", "a"), token);
  }

  static LaunchRequest gang(String token, Offering offering, String... names) {
    return gang(token, offering, names.length, "pg-1", names);
  }

  @Test
  void aSpotGangIsOneRunInstancesWithItsShapeTokenGroupTagsAndUserData() {
    provider(b -> b.maxSpotPrice(40.0));
    List<Instance> made = provider.launch(gang("launch-a", SPOT_A, "gpu-1", "gpu-2", "gpu-3"));

    FakeEc2.Request run = ec2.lastRequest("RunInstances");
    assertThat(run.params()).containsEntry("MinCount", "3").containsEntry("MaxCount", "3")
        .containsEntry("ClientToken", "launch-a")
        .containsEntry("InstanceType", TYPE)
        .containsEntry("Placement.AvailabilityZone", "us-east-1a")
        .containsEntry("Placement.GroupName", "pg-1")
        .containsEntry("NetworkInterface.1.SubnetId", "subnet-0aaaaaaaaaaaaaaa1")
        .containsEntry("ImageId", "ami-0squall0000000001")
        .containsEntry("NetworkInterface.1.SecurityGroupId.1", "sg-0squall000000001")
        .containsEntry("InstanceMarketOptions.MarketType", "spot")
        .containsEntry("InstanceMarketOptions.SpotOptions.SpotInstanceType", "one-time")
        .containsEntry("InstanceMarketOptions.SpotOptions.InstanceInterruptionBehavior", "terminate")
        .containsEntry("InstanceMarketOptions.SpotOptions.MaxPrice", "40.0")
        .containsEntry("MetadataOptions.HttpTokens", "required");
    assertThat(tagSpecification(run, "instance")).containsEntry("squall:cluster", "c1")
        .containsEntry("squall:partition", "gpu").containsEntry("squall:launch", "launch-a")
        .containsEntry("squall:placement-group", "pg-1").containsEntry("team", "a").containsKey("Name");
    assertThat(tagSpecification(run, "volume")).isEqualTo(tagSpecification(run, "instance"));

    String script = new String(Base64.getDecoder().decode(run.get("UserData")), StandardCharsets.UTF_8);
    assertThat(script).startsWith("#!/bin/bash")
        .contains("http://169.254.169.254/latest/api/token", "X-aws-ec2-metadata-token-ttl-seconds",
            "X-aws-ec2-metadata-token: $t", "/latest/meta-data/ami-launch-index")
        .contains("'0')", "'1')", "'2')", "--name 'gpu-1'", "--name 'gpu-2'", "--name 'gpu-3'", "'tok-gpu-2'")
        .contains("--interruptions aws ;;")
        .contains("exec " + io.squall.core.provider.AgentBootstrap.DEFAULT_AGENT_COMMAND);
    assertThat(script.indexOf("--name 'gpu-1'")).isLessThan(script.indexOf("'1')"));

    assertThat(made).extracting(Instance::nodeName).containsExactly("gpu-1", "gpu-2", "gpu-3");
    for (Instance i : made) {
      assertThat(ec2.tags(i.id())).containsEntry("squall:node", i.nodeName()).containsEntry("Name", i.nodeName())
          .containsEntry("squall:cluster", "c1");
    }
    assertThat(ec2.placementGroups()).containsExactly("pg-1");
    assertThat(ec2.lastRequest("CreatePlacementGroup").params()).containsEntry("GroupName", "pg-1")
        .containsEntry("Strategy", "cluster");
  }

  @Test
  void onDemandWithALaunchTemplateHasNoMarketOptionsNorImage() {
    provider(b -> b.imageId(null).launchTemplate("squall-node", "$Latest").instanceProfile("squall-node")
        .keyName("ops"));
    provider.launch(gang("launch-b", ON_DEMAND_B, 1, null, "gpu-9"));
    FakeEc2.Request run = ec2.lastRequest("RunInstances");
    assertThat(run.params()).containsEntry("LaunchTemplate.LaunchTemplateName", "squall-node")
        .containsEntry("LaunchTemplate.Version", "$Latest").containsEntry("IamInstanceProfile.Name", "squall-node")
        .containsEntry("KeyName", "ops").containsEntry("NetworkInterface.1.SubnetId", "subnet-0bbbbbbbbbbbbbbb2")
        .doesNotContainKeys("ImageId", "InstanceMarketOptions.MarketType", "Placement.GroupName");
    assertThat(tagSpecification(run, "instance")).doesNotContainKey("squall:placement-group");
    assertThat(ec2.requests("CreatePlacementGroup")).isEmpty();
  }

  /** The interfaces of a RunInstances by network card index, each as its parameters without the prefix. */
  private static Map<Integer, Map<String, String>> interfacesByCard(FakeEc2.Request run) {
    Map<Integer, Map<String, String>> out = new TreeMap<>();
    for (int n = 1; run.params().containsKey("NetworkInterface." + n + ".DeviceIndex"); n++) {
      String prefix = "NetworkInterface." + n + ".";
      Map<String, String> fields = new TreeMap<>();
      run.params().forEach((k, v) -> {
        if (k.startsWith(prefix)) {
          fields.put(k.substring(prefix.length()), v);
        }
      });
      out.put(Integer.parseInt(fields.get("NetworkCardIndex")), fields);
    }
    return out;
  }

  @Test
  void aP5LaunchHasAnEfaInterfaceOnEachOfItsThirtyTwoNetworkCardsCarryingSubnetAndGroups() {
    provider.launch(gang("launch-efa", SPOT_A, "gpu-1", "gpu-2"));

    FakeEc2.Request run = ec2.lastRequest("RunInstances");
    // EC2 refuses a top-level subnet or security groups beside network interfaces.
    assertThat(run.params()).doesNotContainKeys("SubnetId", "SecurityGroupId.1");
    Map<Integer, Map<String, String>> cards = interfacesByCard(run);
    assertThat(cards).hasSize(32).containsOnlyKeys(java.util.stream.IntStream.range(0, 32).boxed().toList());
    assertThat(cards.get(0)).containsOnly(entry("NetworkCardIndex", "0"), entry("DeviceIndex", "0"),
        entry("InterfaceType", "efa"), entry("SubnetId", "subnet-0aaaaaaaaaaaaaaa1"),
        entry("SecurityGroupId.1", "sg-0squall000000001"), entry("DeleteOnTermination", "true"));
    for (int card = 1; card < 32; card++) {
      assertThat(cards.get(card)).as("card %d", card).containsOnly(entry("NetworkCardIndex", "" + card),
          entry("DeviceIndex", "1"), entry("InterfaceType", "efa-only"), entry("SubnetId", "subnet-0aaaaaaaaaaaaaaa1"),
          entry("SecurityGroupId.1", "sg-0squall000000001"), entry("DeleteOnTermination", "true"));
    }
    assertThat(ec2.aliveIds()).hasSize(2);
  }

  @Test
  void aTypeWithoutEfaKeepsOnePlainInterfaceFromTheTopLevelSubnetAndGroups() {
    Offering small = new Offering("m7i.large", "us-east-1a", CapacityType.ON_DEMAND, 0.1008, Availability.AVAILABLE);
    provider.launch(gang("launch-plain", small, 1, null, "cpu-1"));

    FakeEc2.Request run = ec2.lastRequest("RunInstances");
    assertThat(run.params()).containsEntry("SubnetId", "subnet-0aaaaaaaaaaaaaaa1")
        .containsEntry("SecurityGroupId.1", "sg-0squall000000001")
        .doesNotContainKey("NetworkInterface.1.DeviceIndex");
  }

  @Test
  void aConfiguredCountReplacesTheTablesAndZeroLaunchesWithoutEfa() {
    provider(b -> b.efaInterfaces(TYPE, 4));
    provider.launch(gang("launch-four", ON_DEMAND_B, "gpu-1"));
    FakeEc2.Request four = ec2.lastRequest("RunInstances");
    assertThat(interfacesByCard(four)).containsOnlyKeys(0, 1, 2, 3);
    assertThat(four.params()).containsEntry("NetworkInterface.4.SubnetId", "subnet-0bbbbbbbbbbbbbbb2")
        .doesNotContainKey("SubnetId");

    provider(b -> b.efaInterfaces(TYPE, 0));
    provider.launch(gang("launch-none", ON_DEMAND_B, "gpu-2"));
    FakeEc2.Request none = ec2.lastRequest("RunInstances");
    assertThat(none.params()).containsEntry("SubnetId", "subnet-0bbbbbbbbbbbbbbb2")
        .containsEntry("SecurityGroupId.1", "sg-0squall000000001")
        .doesNotContainKey("NetworkInterface.1.DeviceIndex");
  }

  @Test
  void withoutSecurityGroupsTheInterfacesTakeTheVpcsDefault() {
    provider(b -> b.securityGroupIds(List.of()));
    provider.launch(gang("launch-nosg", ON_DEMAND_B, "gpu-1"));
    assertThat(interfacesByCard(ec2.lastRequest("RunInstances")).values())
        .hasSize(32).allSatisfy(i -> assertThat(i).doesNotContainKey("SecurityGroupId.1"));
  }

  @Test
  void anExistingPlacementGroupIsFine() {
    provider.launch(gang("launch-c", ON_DEMAND_B, "gpu-1"));
    // A provider that did not make it (another controller, or this one after a restart) finds it there.
    try (AwsProvider restarted = new AwsProvider(AwsProviderContractTest.settings(ec2).build())) {
      List<Instance> second = restarted.launch(gang("launch-d", ON_DEMAND_B, "gpu-2"));
      assertThat(second).extracting(Instance::placementGroup).containsExactly("pg-1");
    }
    assertThat(ec2.requests("CreatePlacementGroup")).hasSize(2);
    assertThat(provider.list("c1")).extracting(Instance::nodeName).containsExactly("gpu-1", "gpu-2");
  }

  @Test
  void aProviderCreatesEachPlacementGroupOnce() {
    provider.launch(gang("launch-e", ON_DEMAND_B, "gpu-1"));
    provider.launch(gang("launch-f", ON_DEMAND_B, "gpu-2"));
    assertThat(ec2.requests("CreatePlacementGroup")).hasSize(1);
  }

  @Test
  void aThrottledTaggingIsFinishedByTheRetryWithTheSameToken() {
    ec2.failNext("CreateTags", 503, "RequestLimitExceeded", "Request limit exceeded.");
    assertThatThrownBy(() -> provider.launch(gang("launch-e", SPOT_A, "gpu-1", "gpu-2")))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.THROTTLED);
          assertThat(e.getMessage()).contains("CreateTags", "RequestLimitExceeded: Request limit exceeded.");
        });
    assertThat(ec2.aliveIds()).hasSize(2);
    List<Instance> retried = provider.launch(gang("launch-e", SPOT_A, "gpu-1", "gpu-2"));
    assertThat(ec2.requests("RunInstances")).hasSize(2);
    assertThat(retried).extracting(Instance::id).containsExactlyElementsOf(ec2.aliveIds());
    assertThat(retried).extracting(i -> ec2.tags(i.id()).get("squall:node")).containsExactly("gpu-1", "gpu-2");
  }

  @Test
  void aTaggingFailureThatNoRetryMendsTerminatesTheWholeLaunch() {
    ec2.failNext("CreateTags", 403, "UnauthorizedOperation", "You are not authorized to perform this operation.");
    assertThatThrownBy(() -> provider.launch(gang("launch-e", SPOT_A, "gpu-1", "gpu-2")))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.UNAUTHORIZED);
          assertThat(e.getMessage()).contains("CreateTags", "UnauthorizedOperation");
        });
    assertThat(ec2.requests("RunInstances")).hasSize(1);
    assertThat(ec2.lastRequest("TerminateInstances").list("InstanceId")).hasSize(2);
    assertThat(ec2.aliveIds()).isEmpty();
    assertThat(provider.list("c1")).isEmpty();
    // The token is spent: EC2 answers it with the terminated reservation, which is no launch.
    assertThatThrownBy(() -> provider.launch(gang("launch-e", SPOT_A, "gpu-1", "gpu-2")))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.INVALID);
          assertThat(e.getMessage()).contains("launch-e", "new token");
        });
    assertThat(ec2.aliveIds()).isEmpty();
  }

  @Test
  void aRepeatedTokenReturnsTheSameInstancesInRequestOrder() {
    List<Instance> first = provider.launch(gang("launch-f", SPOT_A, "gpu-1", "gpu-2"));
    List<Instance> again = provider.launch(gang("launch-f", SPOT_A, "gpu-1", "gpu-2"));
    assertThat(again).usingRecursiveFieldByFieldElementComparatorIgnoringFields("state").isEqualTo(first);
    assertThat(first).extracting(Instance::state).containsOnly(InstanceState.PENDING);
    assertThat(again).extracting(Instance::state).containsOnly(InstanceState.RUNNING);
    assertThat(ec2.aliveIds()).hasSize(2);
  }

  @Test
  void aLongTokenIsHashedIntoAClientTokenAndStaysIdempotent() {
    String token = "launch-" + "x".repeat(100);
    List<Instance> first = provider.launch(gang(token, SPOT_A, "gpu-1"));
    List<Instance> again = provider.launch(gang(token, SPOT_A, "gpu-1"));
    assertThat(again).extracting(Instance::id).isEqualTo(first.stream().map(Instance::id).toList());
    assertThat(ec2.lastRequest("RunInstances").get("ClientToken")).hasSize(64).isNotEqualTo(token);
    assertThat(provider.list("c1")).singleElement().extracting(Instance::launchToken).isEqualTo(token);
  }

  @Test
  void theSameTokenWithOtherParametersIsInvalid() {
    provider.launch(gang("launch-g", SPOT_A, "gpu-1"));
    assertThatThrownBy(() -> provider.launch(gang("launch-g", SPOT_A, "gpu-1", "gpu-2")))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.INVALID);
          assertThat(e.getMessage()).contains("IdempotentParameterMismatch");
        });
  }

  @Test
  void belowMinCountNothingStartsAndTheMessageIsEc2s() {
    ec2.capacity(TYPE, "us-east-1a", "spot", 2);
    assertThatThrownBy(() -> provider.launch(gang("launch-h", SPOT_A, "gpu-1", "gpu-2", "gpu-3")))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.INSUFFICIENT_CAPACITY);
          assertThat(e.getMessage()).contains("InsufficientInstanceCapacity: We currently do not have sufficient"
              + " p5.48xlarge capacity in the Availability Zone you requested (us-east-1a).");
        });
    assertThat(ec2.aliveIds()).isEmpty();
  }

  @Test
  void aboveMinCountTheFirstNodesStart() {
    ec2.capacity(TYPE, "us-east-1a", "spot", 2);
    List<Instance> made = provider.launch(gang("launch-i", SPOT_A, 1, "pg-1", "gpu-1", "gpu-2", "gpu-3"));
    assertThat(made).extracting(Instance::nodeName).containsExactly("gpu-1", "gpu-2");
    assertThat(ec2.lastRequest("RunInstances").params()).containsEntry("MinCount", "1").containsEntry("MaxCount", "3");
  }

  @Test
  void aSpotPriceAboveTheCapIsTyped() {
    provider(b -> b.maxSpotPrice(10.0));
    assertThatThrownBy(() -> provider.launch(gang("launch-j", SPOT_A, "gpu-1")))
        .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.kind()).isEqualTo(Kind.PRICE_TOO_HIGH));
  }

  @Test
  void aZoneWithoutSubnetIsInvalidBeforeAnyCall() {
    Offering c = new Offering(TYPE, "us-east-1c", CapacityType.SPOT, 12, Availability.AVAILABLE);
    assertThatThrownBy(() -> provider.launch(gang("launch-k", c, "gpu-1")))
        .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.kind()).isEqualTo(Kind.INVALID));
    assertThat(ec2.requests("RunInstances")).isEmpty();
  }

  @Test
  void userDataOverSixteenKilobytesIsInvalid() {
    String[] names = new String[80];
    for (int i = 0; i < names.length; i++) {
      names[i] = "gpu-node-with-a-rather-long-name-" + i;
    }
    assertThatThrownBy(() -> provider.launch(gang("launch-l", SPOT_A, 1, null, names)))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.INVALID);
          assertThat(e.getMessage()).contains("user data");
        });
    assertThat(ec2.requests("RunInstances")).isEmpty();
  }

  @Test
  void offeringsArePerZoneWithASubnetPricedAndSorted() {
    provider(b -> b.maxSpotPrice(30.0));
    List<Offering> all = provider.offerings(List.of(TYPE, "m7i.large", "nope.large"));
    assertThat(all).containsExactly(
        new Offering("m7i.large", "us-east-1a", CapacityType.SPOT, 0.04, Availability.AVAILABLE),
        new Offering("m7i.large", "us-east-1a", CapacityType.ON_DEMAND, 0, Availability.AVAILABLE),
        new Offering(TYPE, "us-east-1a", CapacityType.SPOT, 31.4159, Availability.UNAVAILABLE),
        new Offering(TYPE, "us-east-1a", CapacityType.ON_DEMAND, 98.32, Availability.AVAILABLE),
        new Offering(TYPE, "us-east-1b", CapacityType.SPOT, 29.5, Availability.AVAILABLE),
        new Offering(TYPE, "us-east-1b", CapacityType.ON_DEMAND, 98.32, Availability.AVAILABLE));
    FakeEc2.Request offerings = ec2.lastRequest("DescribeInstanceTypeOfferings");
    assertThat(offerings.params()).containsEntry("LocationType", "availability-zone")
        .containsEntry("Filter.1.Name", "instance-type");
    assertThat(ec2.lastRequest("DescribeSpotPriceHistory").params())
        .containsEntry("ProductDescription.1", "Linux/UNIX").containsKey("StartTime");
    assertThat(provider.offerings(List.of())).isEmpty();
  }

  /**
   * The offerings EC2 lists, rated from the bundled advisor snapshot: in us-east-1 p5.48xlarge is
   * in the {@code >20%} bucket (0.25 / 730 per node-hour) in every zone; m7i.large is not in it.
   */
  @Test
  void spotOfferingsPublishTheAdvisorsRateOfTheirTypeInTheRegionOnDemandOnesNone() {
    Map<String, Double> rates = new TreeMap<>();
    for (Offering o : provider.offerings(List.of(TYPE, "m7i.large"))) {
      rates.put(o.key(), provider.interruptionsPerNodeHour(o));
    }
    assertThat(rates).containsOnly(
        entry("m7i.large/us-east-1a/SPOT", 0.0),
        entry("m7i.large/us-east-1a/ON_DEMAND", 0.0),
        entry(TYPE + "/us-east-1a/SPOT", 0.25 / 730),
        entry(TYPE + "/us-east-1a/ON_DEMAND", 0.0),
        entry(TYPE + "/us-east-1b/SPOT", 0.25 / 730),
        entry(TYPE + "/us-east-1b/ON_DEMAND", 0.0));

    // The advisor rates p5.48xlarge 5-10% in us-west-2: the provider's region decides.
    AwsSettings west = AwsSettings.builder("us-west-2").endpoint(ec2.endpoint()).subnet("us-west-2a", "subnet-1")
        .imageId("ami-1").build();
    try (AwsProvider oregon = new AwsProvider(west)) {
      assertThat(oregon.interruptionsPerNodeHour(
          new Offering(TYPE, "us-west-2a", CapacityType.SPOT, 40.0, Availability.AVAILABLE))).isEqualTo(0.075 / 730);
    }
  }

  @Test
  void aConfiguredRateReplacesTheAdvisorsForItsTypeOnly() {
    provider(b -> b.spotInterruptionsPerNodeHour(TYPE, 0.002).spotInterruptionsPerNodeHour("m7i.large", 0.0005));
    assertThat(provider.interruptionsPerNodeHour(SPOT_A)).isEqualTo(0.002);
    assertThat(provider.interruptionsPerNodeHour(ON_DEMAND_B)).isZero();
    assertThat(provider.interruptionsPerNodeHour(
        new Offering("m7i.large", "us-east-1a", CapacityType.SPOT, 0.04, Availability.AVAILABLE))).isEqualTo(0.0005);
    assertThat(provider.interruptionsPerNodeHour(
        new Offering("p5en.48xlarge", "us-east-1a", CapacityType.SPOT, 30.0, Availability.AVAILABLE)))
        .isEqualTo(0.025 / 730); // not configured: the advisor's <5%
  }

  @Test
  void spotPricesAreTheLatestPerZoneWithASubnet() {
    List<SpotPrice> prices = provider.spotPrices(List.of(TYPE));
    assertThat(prices).extracting(SpotPrice::zone).containsExactly("us-east-1a", "us-east-1b");
    assertThat(prices).extracting(SpotPrice::pricePerHour).containsExactly(31.4159, 29.5);
    assertThat(prices).allSatisfy(p -> assertThat(p.since()).isNotNull());
  }

  @Test
  void listReadsEveryPageBackFromTags() {
    ec2.pageSize(1);
    provider.launch(gang("launch-m", SPOT_A, "gpu-2", "gpu-1"));
    provider.launch(gang("launch-n", ON_DEMAND_B, 1, null, "gpu-0"));
    provider.launch(new LaunchRequest("other", "gpu", gang("x", SPOT_A, "gpu-7").nodes(), 1, SPOT_A, null, Map.of(),
        "launch-o"));
    List<Instance> listed = provider.list("c1");
    assertThat(listed).extracting(Instance::nodeName).containsExactly("gpu-0", "gpu-1", "gpu-2");
    assertThat(ec2.requests("DescribeInstances").size()).isGreaterThanOrEqualTo(3);
    Instance zero = listed.get(0);
    assertThat(zero.offering()).isEqualTo(ON_DEMAND_B);
    assertThat(zero.launchToken()).isEqualTo("launch-n");
    assertThat(zero.placementGroup()).isNull();
    assertThat(zero.state()).isEqualTo(InstanceState.RUNNING);
    Instance one = listed.get(1);
    assertThat(one.offering().capacityType()).isEqualTo(CapacityType.SPOT);
    assertThat(one.offering().pricePerHour()).isZero();
    assertThat(one.partition()).isEqualTo("gpu");
    assertThat(one.placementGroup()).isEqualTo("pg-1");
    FakeEc2.Request describe = ec2.lastRequest("DescribeInstances");
    assertThat(describe.params()).containsEntry("Filter.1.Name", "tag:squall:cluster")
        .containsEntry("Filter.1.Value.1", "c1").containsEntry("Filter.2.Name", "instance-state-name");
    assertThat(describe.list("Filter.2.Value"))
        .containsExactly("pending", "running", "stopping", "stopped", "shutting-down");
  }

  @Test
  void terminateTreatsUnknownAndMalformedIdsAsDoneAndTypesOtherFailures() {
    Instance i = provider.launch(gang("launch-p", SPOT_A, "gpu-1")).get(0);
    provider.terminate(i);
    assertThat(ec2.state(i.id())).isEqualTo("terminated");
    provider.terminate(i);
    provider.terminate(new Instance("not-an-id", "x", "c1", "gpu", null, "t", SPOT_A, InstanceState.RUNNING));
    provider.terminate(new Instance("i-0123456789abcdef0", "x", "c1", "gpu", null, "t", SPOT_A, InstanceState.RUNNING));
    ec2.failNext("TerminateInstances", 403, "UnauthorizedOperation", "You are not authorized to perform this operation.");
    assertThatThrownBy(() -> provider.terminate(i))
        .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAUTHORIZED));
  }

  @Test
  void theSdkDoesNotRetry() {
    ec2.failNext(null, 503, "RequestLimitExceeded", "Request limit exceeded.");
    assertThatThrownBy(() -> provider.spotPrices(List.of(TYPE)))
        .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.kind()).isEqualTo(Kind.THROTTLED));
    assertThat(ec2.requests("DescribeSpotPriceHistory")).hasSize(1);
    ec2.failNext(null, 500, "InternalError", "An internal error has occurred");
    assertThatThrownBy(() -> provider.list("c1"))
        .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TRANSIENT));
    assertThat(ec2.requests("DescribeInstances")).hasSize(1);
  }

  @Test
  void noAnswerIsTransient() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    int closed = port;
    provider(b -> b.endpoint(URI.create("http://127.0.0.1:" + closed)));
    assertThatThrownBy(() -> provider.list("c1"))
        .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TRANSIENT));
  }

  @Test
  void closingLeavesInstancesRunning() {
    List<Instance> made = provider.launch(gang("launch-q", SPOT_A, "gpu-1"));
    provider.close();
    provider = new AwsProvider(AwsProviderContractTest.settings(ec2).build());
    assertThat(provider.list("c1")).extracting(Instance::id).containsExactly(made.get(0).id());
  }

  @Test
  void networkNodesComeFromDescribeInstanceTopology() {
    List<Instance> made = provider.launch(gang("launch-r", SPOT_A, "gpu-1", "gpu-2"));
    List<String> ids = made.stream().map(Instance::id).toList();
    Map<String, List<String>> topology = provider.networkNodes(ids);
    assertThat(topology).containsOnlyKeys(ids);
    assertThat(topology.get(ids.get(0))).hasSize(3).isEqualTo(topology.get(ids.get(1)));
    assertThat(ec2.lastRequest("DescribeInstanceTopology").list("InstanceId")).isEqualTo(ids);
    assertThat(provider.networkNodes(List.of())).isEmpty();
  }

  /** The tags of the request's tag specification for {@code resourceType}. */
  static Map<String, String> tagSpecification(FakeEc2.Request r, String resourceType) {
    for (int s = 1; r.params().containsKey("TagSpecification." + s + ".ResourceType"); s++) {
      if (resourceType.equals(r.get("TagSpecification." + s + ".ResourceType"))) {
        Map<String, String> tags = new java.util.LinkedHashMap<>();
        String prefix = "TagSpecification." + s + ".Tag.";
        for (int t = 1; r.params().containsKey(prefix + t + ".Key"); t++) {
          tags.put(r.get(prefix + t + ".Key"), r.get(prefix + t + ".Value"));
        }
        return tags;
      }
    }
    throw new AssertionError("no tag specification for " + resourceType + " in " + r.params());
  }
}
