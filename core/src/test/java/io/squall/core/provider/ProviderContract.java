package io.squall.core.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.core.model.Node;
import io.squall.core.model.NodeState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The one contract every {@link NodeProvider} passes (DESIGN.md §5, layer 4). A provider module
 * extends it in its tests, backed by whatever stands in for the real service (a fake EC2 or GCE
 * endpoint speaking the real wire format, processes on this host, virtual time).
 */
public abstract class ProviderContract {
  protected static final String CLUSTER = "contract";

  protected NodeProvider provider;

  /** A fresh provider over a fresh fake, with no instances. */
  protected abstract NodeProvider newProvider() throws Exception;

  /** The instance type this provider's default node template uses ({@code p5.48xlarge}, ...). */
  protected abstract String instanceType();

  /**
   * Makes the next launch of {@code offering} fail the way the real service fails when it has no
   * capacity (EC2 {@code InsufficientInstanceCapacity}, GCE {@code ZONE_RESOURCE_POOL_EXHAUSTED}).
   */
  protected abstract void exhaustCapacity(Offering offering) throws Exception;

  /** Makes the next call fail with the real service's quota error. */
  protected abstract void exceedQuota() throws Exception;

  /** Makes the next call fail with the real service's throttling error. */
  protected abstract void throttleNextCall() throws Exception;

  /** Releases the fake (servers, directories). */
  protected void closeFake() throws Exception {}

  @BeforeEach
  void startProvider() throws Exception {
    provider = newProvider();
  }

  @AfterEach
  void stopProvider() throws Exception {
    for (Instance i : provider.list(CLUSTER)) {
      provider.terminate(i);
    }
    provider.close();
    closeFake();
  }

  protected Offering offering() {
    List<Offering> all = provider.offerings(List.of(instanceType()));
    assertThat(all).as("offerings of " + instanceType()).isNotEmpty();
    return all.stream().filter(o -> o.availability() != Availability.UNAVAILABLE).findFirst().orElseThrow();
  }

  protected LaunchRequest gang(String token, Offering offering, String... nodeNames) {
    List<NodeLaunch> nodes = new ArrayList<>();
    for (String name : nodeNames) {
      Node node = new Node(name, 8, "h100", 32, 65536, Set.of(), "pg-1", NodeState.CLOUD);
      nodes.add(new NodeLaunch(node, "http://127.0.0.1:1", "token-" + name));
    }
    return new LaunchRequest(CLUSTER, "gpu", nodes, nodes.size(), offering, "pg-1", Map.of("team", "a"), token);
  }

  @Test
  void offeringsAreSortedPricedAndOfTheAskedType() {
    List<Offering> all = provider.offerings(List.of(instanceType(), "no-such-type.9xl"));
    assertThat(all).isNotEmpty().allSatisfy(o -> {
      assertThat(o.instanceType()).isEqualTo(instanceType());
      assertThat(o.zone()).isNotBlank();
      assertThat(o.pricePerHour()).isGreaterThanOrEqualTo(0);
    });
    List<String> keys = all.stream().map(Offering::key).toList();
    assertThat(keys).doesNotHaveDuplicates();
  }

  @Test
  void aGangLaunchesWholeTaggedAndListed() {
    Offering offering = offering();
    List<Instance> made = provider.launch(gang("launch-1", offering, "gpu-1", "gpu-2"));
    assertThat(made).extracting(Instance::nodeName).containsExactly("gpu-1", "gpu-2");
    assertThat(made).allSatisfy(i -> {
      assertThat(i.cluster()).isEqualTo(CLUSTER);
      assertThat(i.partition()).isEqualTo("gpu");
      assertThat(i.launchToken()).isEqualTo("launch-1");
      assertThat(i.offering().instanceType()).isEqualTo(offering.instanceType());
      assertThat(i.offering().zone()).isEqualTo(offering.zone());
      assertThat(i.offering().capacityType()).isEqualTo(offering.capacityType());
      assertThat(i.state().alive()).isTrue();
    });
    assertThat(provider.list(CLUSTER)).extracting(Instance::nodeName).containsExactly("gpu-1", "gpu-2");
    assertThat(provider.list("another-cluster")).isEmpty();
  }

  @Test
  void aNetworkLayoutIsOnlyForTheAskedInstances() {
    List<Instance> made = provider.launch(gang("launch-7", offering(), "gpu-10", "gpu-11"));
    Map<String, List<String>> layout = provider.networkNodes(List.of(made.get(0).id()));
    assertThat(layout.keySet()).isSubsetOf(made.get(0).id());
    layout.values().forEach(path -> assertThat(path).isNotEmpty().doesNotContainNull());
  }

  @Test
  void aRepeatedLaunchTokenMakesNothingNew() {
    Offering offering = offering();
    List<Instance> first = provider.launch(gang("launch-2", offering, "gpu-3"));
    List<Instance> again = provider.launch(gang("launch-2", offering, "gpu-3"));
    assertThat(again).extracting(Instance::id).isEqualTo(first.stream().map(Instance::id).toList());
    assertThat(provider.list(CLUSTER)).hasSize(1);
  }

  @Test
  void terminateIsIdempotent() {
    List<Instance> made = provider.launch(gang("launch-3", offering(), "gpu-4", "gpu-5"));
    provider.terminate(made.get(0));
    assertThat(provider.list(CLUSTER)).extracting(Instance::nodeName).containsExactly("gpu-5");
    assertThatCode(() -> provider.terminate(made.get(0))).doesNotThrowAnyException();
    Instance neverWas = new Instance("i-0123456789abcdef0", "ghost", CLUSTER, "gpu", null, "none", made.get(0).offering(),
        InstanceState.RUNNING);
    assertThatCode(() -> provider.terminate(neverWas)).doesNotThrowAnyException();
  }

  @Test
  void noCapacityIsTypedAndLeavesNothingRunning() throws Exception {
    Offering offering = offering();
    exhaustCapacity(offering);
    assertThatThrownBy(() -> provider.launch(gang("launch-4", offering, "gpu-6", "gpu-7")))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(ProviderException.Kind.INSUFFICIENT_CAPACITY);
          assertThat(e.getMessage()).isNotBlank();
        });
    assertThat(provider.list(CLUSTER)).isEmpty();
  }

  @Test
  void quotaAndThrottlingAreTyped() throws Exception {
    Offering offering = offering();
    exceedQuota();
    assertThatThrownBy(() -> provider.launch(gang("launch-5", offering, "gpu-8")))
        .isInstanceOfSatisfying(ProviderException.class,
            e -> assertThat(e.kind()).isEqualTo(ProviderException.Kind.QUOTA_EXCEEDED));
    throttleNextCall();
    assertThatThrownBy(() -> provider.launch(gang("launch-6", offering, "gpu-8")))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(ProviderException.Kind.THROTTLED);
          assertThat(e.kind().retryable()).isTrue();
        });
    assertThat(provider.list(CLUSTER)).isEmpty();
  }

  @Test
  void spotPricesAreForTheAskedTypes() {
    List<SpotPrice> prices = provider.spotPrices(List.of(instanceType()));
    assertThat(prices).allSatisfy(p -> {
      assertThat(p.instanceType()).isEqualTo(instanceType());
      assertThat(p.pricePerHour()).isGreaterThan(0);
    });
    boolean sellsSpot = provider.offerings(List.of(instanceType())).stream()
        .anyMatch(o -> o.capacityType() == CapacityType.SPOT);
    assertThat(prices.isEmpty()).isEqualTo(!sellsSpot);
  }
}
