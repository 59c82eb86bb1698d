package io.squall.providers.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What goes over the wire to GCE and what comes back, against {@link FakeGce}. */
class GcpProviderTest {
  private static final String TYPE = GcpProviderContractTest.TYPE;
  private static final String ZONE = "us-central1-a";
  /** The built-in list price of {@link #TYPE}, which the settings here do not override. */
  private static final MachinePrice LIST = GcpSettings.DEFAULT_PRICES.get(TYPE);

  private FakeGce fake;
  private GcpProvider provider;

  @BeforeEach
  void start() throws Exception {
    fake = GcpProviderContractTest.fake();
    provider = new GcpProvider(GcpProviderContractTest.settings(fake));
  }

  @AfterEach
  void stop() {
    provider.close();
    fake.close();
  }

  private static Offering offering(String zone, CapacityType capacity) {
    return new Offering(TYPE, zone, capacity, 1, Availability.AVAILABLE);
  }

  private static LaunchRequest request(String cluster, String token, Offering offering, int minCount, String pg,
      Map<String, String> tags, String... names) {
    List<NodeLaunch> nodes = new ArrayList<>();
    for (String name : names) {
      nodes.add(new NodeLaunch(new Node(name, 8, "h100", 208, 1_800_000, Set.of("ib"), pg, NodeState.CLOUD),
          "http://10.0.0.2:6820", "secret-" + name));
    }
    return new LaunchRequest(cluster, "gpu", nodes, minCount, offering, pg, tags, token);
  }

  private static LaunchRequest gang(String token, CapacityType capacity, String... names) {
    return request("prod", token, offering(ZONE, capacity), names.length, "pg-1", Map.of("Team", "ML.Research"), names);
  }

  private JsonObject lastBulkInsert() {
    List<FakeGce.Request> calls = fake.requests("POST", "/instances/bulkInsert");
    assertThat(calls).isNotEmpty();
    return calls.get(calls.size() - 1).json();
  }

  private static Map<String, String> items(JsonObject metadata) {
    Map<String, String> items = new HashMap<>();
    for (JsonElement e : metadata.getAsJsonArray("items")) {
      items.put(e.getAsJsonObject().get("key").getAsString(), e.getAsJsonObject().get("value").getAsString());
    }
    return items;
  }

  @Test
  void aSpotGangIsOneBulkInsertWithCountMinCountNamesAndSpotScheduling() {
    List<Instance> made = provider.launch(gang("launch-A:1", CapacityType.SPOT, "gpu-1", "gpu-2", "gpu-3"));

    assertThat(made).extracting(Instance::nodeName).containsExactly("gpu-1", "gpu-2", "gpu-3");
    assertThat(made).allSatisfy(i -> {
      assertThat(i.offering().capacityType()).isEqualTo(CapacityType.SPOT);
      assertThat(i.offering().pricePerHour()).isEqualTo(LIST.spot());
      assertThat(i.state()).isEqualTo(InstanceState.PENDING);
    });
    assertThat(fake.requests("POST", "/instances/bulkInsert")).hasSize(1);
    FakeGce.Request call = fake.requests("POST", "/instances/bulkInsert").get(0);
    assertThat(call.path()).isEqualTo("/compute/v1/projects/squall-test/zones/us-central1-a/instances/bulkInsert");
    assertThat(call.query()).containsEntry("requestId", GceNames.requestId("launch-A:1"));

    JsonObject body = call.json();
    assertThat(body.get("count").getAsLong()).isEqualTo(3);
    assertThat(body.get("minCount").getAsLong()).isEqualTo(3);
    assertThat(body.getAsJsonObject("perInstanceProperties").keySet()).containsExactlyInAnyOrder("gpu-1", "gpu-2", "gpu-3");
    assertThat(body.getAsJsonObject("perInstanceProperties").getAsJsonObject("gpu-2").get("name").getAsString())
        .isEqualTo("gpu-2");
    JsonObject props = body.getAsJsonObject("instanceProperties");
    assertThat(props.get("machineType").getAsString()).isEqualTo(TYPE);
    JsonObject scheduling = props.getAsJsonObject("scheduling");
    assertThat(scheduling.get("provisioningModel").getAsString()).isEqualTo("SPOT");
    assertThat(scheduling.get("instanceTerminationAction").getAsString()).isEqualTo("DELETE");
    assertThat(scheduling.get("onHostMaintenance").getAsString()).isEqualTo("TERMINATE");
    assertThat(scheduling.get("automaticRestart").getAsBoolean()).isFalse();

    JsonObject disk = props.getAsJsonArray("disks").get(0).getAsJsonObject();
    assertThat(disk.get("boot").getAsBoolean()).isTrue();
    assertThat(disk.get("autoDelete").getAsBoolean()).isTrue();
    assertThat(disk.getAsJsonObject("initializeParams").get("sourceImage").getAsString())
        .isEqualTo("projects/squall-test/global/images/family/squall-node");
    assertThat(props.getAsJsonArray("networkInterfaces").get(0).getAsJsonObject().get("network").getAsString())
        .isEqualTo("global/networks/default");
    assertThat(props.getAsJsonArray("serviceAccounts").get(0).getAsJsonObject().get("email").getAsString())
        .isEqualTo("nodes@squall-test.iam.gserviceaccount.com");
  }

  @Test
  void labelsAreSanitizedAndMetadataKeepsTheExactValues() {
    provider.launch(gang("Launch-A:1", CapacityType.ON_DEMAND, "gpu-1"));
    JsonObject props = lastBulkInsert().getAsJsonObject("instanceProperties");
    JsonObject labels = props.getAsJsonObject("labels");
    assertThat(labels.get("squall-cluster").getAsString()).isEqualTo("prod");
    assertThat(labels.get("squall-partition").getAsString()).isEqualTo("gpu");
    assertThat(labels.get("squall-launch").getAsString()).isEqualTo("launch-a-1");
    assertThat(labels.get("squall-placement-group").getAsString()).isEqualTo("pg-1");
    assertThat(labels.get("team").getAsString()).isEqualTo("ml-research");
    for (String key : labels.keySet()) {
      assertThat(key).matches("[a-z][a-z0-9_-]{0,62}");
      assertThat(labels.get(key).getAsString()).matches("[a-z0-9_-]{0,63}");
    }
    Map<String, String> items = items(props.getAsJsonObject("metadata"));
    assertThat(items).containsEntry("squall-launch", "Launch-A:1").containsEntry("squall-cluster", "prod");

    Instance listed = provider.list("prod").get(0);
    assertThat(listed.launchToken()).isEqualTo("Launch-A:1");
    assertThat(listed.placementGroup()).isEqualTo("pg-1");
  }

  @Test
  void onDemandIsStandardWithoutTerminationAction() {
    Instance i = provider.launch(gang("launch-od", CapacityType.ON_DEMAND, "gpu-1")).get(0);
    JsonObject scheduling = lastBulkInsert().getAsJsonObject("instanceProperties").getAsJsonObject("scheduling");
    assertThat(scheduling.get("provisioningModel").getAsString()).isEqualTo("STANDARD");
    assertThat(scheduling.has("instanceTerminationAction")).isFalse();
    assertThat(scheduling.get("onHostMaintenance").getAsString()).isEqualTo("TERMINATE");
    assertThat(i.offering().capacityType()).isEqualTo(CapacityType.ON_DEMAND);
    assertThat(i.offering().pricePerHour()).isEqualTo(LIST.onDemand());
  }

  @Test
  void theStartupScriptNamesEveryNodeAndFindsItselfByInstanceName() {
    provider.launch(gang("launch-s", CapacityType.SPOT, "gpu-1", "gpu-2"));
    String script = items(lastBulkInsert().getAsJsonObject("instanceProperties").getAsJsonObject("metadata"))
        .get("startup-script");
    assertThat(script).startsWith("#!/bin/bash")
        .contains("key=$(curl -fsS --retry 10 --retry-connrefused -H 'Metadata-Flavor: Google' http://metadata.google.internal/computeMetadata/v1/instance/name)")
        .contains("'gpu-1')", "'gpu-2')", "--name 'gpu-1'", "--name 'gpu-2'", "printf '%s' 'secret-gpu-2' > /run/squall/agent-token")
        .contains("--controller 'http://10.0.0.2:6820'", "--placement-group 'pg-1' --interruptions gcp ;;")
        .contains("exec /opt/squall/bin/squall-agent --work-dir /var/lib/squall-agent --bind 0.0.0.0 --port 6818 \"$@\"");
  }

  @Test
  void thePlacementGroupIsACompactPolicyMadeOnceAndNamedByTheInstances() {
    provider.launch(gang("launch-p1", CapacityType.SPOT, "gpu-1"));
    provider.launch(gang("launch-p2", CapacityType.SPOT, "gpu-2"));

    JsonObject policy = fake.policy("squall-prod-pg-1");
    assertThat(policy).isNotNull();
    assertThat(policy.getAsJsonObject("groupPlacementPolicy").get("collocation").getAsString()).isEqualTo("COLLOCATED");
    assertThat(fake.requests("POST", "/regions/us-central1/resourcePolicies")).hasSize(1);
    // A provider that did not make it (after a restart) finds it there: 409, fine.
    try (GcpProvider restarted = new GcpProvider(GcpProviderContractTest.settings(fake))) {
      restarted.launch(gang("launch-p3", CapacityType.SPOT, "gpu-3"));
    }
    assertThat(fake.requests("POST", "/regions/us-central1/resourcePolicies")).hasSize(2);
    JsonArray policies = lastBulkInsert().getAsJsonObject("instanceProperties").getAsJsonArray("resourcePolicies");
    assertThat(policies).hasSize(1);
    assertThat(policies.get(0).getAsString()).isEqualTo("squall-prod-pg-1");
    assertThat(fake.instance(ZONE, "gpu-2").getAsJsonArray("resourcePolicies").get(0).getAsString())
        .endsWith("/regions/us-central1/resourcePolicies/squall-prod-pg-1");
  }

  @Test
  void noPlacementGroupNoPolicy() {
    provider.launch(request("prod", "launch-np", offering(ZONE, CapacityType.SPOT), 1, null, Map.of(), "gpu-1"));
    assertThat(fake.requests("POST", "/resourcePolicies")).isEmpty();
    assertThat(lastBulkInsert().getAsJsonObject("instanceProperties").has("resourcePolicies")).isFalse();
  }

  @Test
  void theSameTokenIsTheSameRequestIdAndGceMakesNothingNew() {
    List<Instance> first = provider.launch(gang("launch-r", CapacityType.SPOT, "gpu-1", "gpu-2"));
    int operations = fake.operationCount();
    List<Instance> again = provider.launch(gang("launch-r", CapacityType.SPOT, "gpu-1", "gpu-2"));

    assertThat(again).isEqualTo(first);
    List<FakeGce.Request> calls = fake.requests("POST", "/instances/bulkInsert");
    assertThat(calls).hasSize(2);
    assertThat(calls.get(0).query().get("requestId")).isEqualTo(calls.get(1).query().get("requestId"));
    assertThat(fake.operationCount()).isEqualTo(operations);
    assertThat(fake.instanceCount()).isEqualTo(2);
  }

  @Test
  void aRepeatOfALaunchWhoseInstancesWentIsRefusedAndLeavesNothing() {
    List<Instance> first = provider.launch(gang("launch-g", CapacityType.SPOT, "gpu-1", "gpu-2"));
    provider.terminate(first.get(0));
    assertThatThrownBy(() -> provider.launch(gang("launch-g", CapacityType.SPOT, "gpu-1", "gpu-2")))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.INVALID);
          assertThat(e.getMessage()).contains("launch-g", "only 1 of at least 2", "new token");
        });
    assertThat(fake.instanceCount()).isZero();
  }

  @Test
  void aRepeatAfterGceForgotTheRequestIdFindsItsOwnInstances() {
    List<Instance> first = provider.launch(gang("launch-f", CapacityType.SPOT, "gpu-1"));
    fake.forgetRequestIds();
    assertThat(provider.launch(gang("launch-f", CapacityType.SPOT, "gpu-1"))).isEqualTo(first);
    assertThat(fake.instanceCount()).isEqualTo(1);
  }

  @Test
  void anotherLaunchOfTheSameNamesIsRefused() {
    provider.launch(gang("launch-x", CapacityType.SPOT, "gpu-1"));
    assertThatThrownBy(() -> provider.launch(gang("launch-y", CapacityType.SPOT, "gpu-1")))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.INVALID);
          assertThat(e.getMessage()).contains("RESOURCE_ALREADY_EXISTS");
        });
  }

  @Test
  void minCountBelowCountTakesWhatFitsAndNothingBelowIt() {
    fake.capacity(TYPE, ZONE, "SPOT", 2);
    List<Instance> made = provider.launch(request("prod", "launch-m1", offering(ZONE, CapacityType.SPOT), 2, null,
        Map.of(), "gpu-1", "gpu-2", "gpu-3"));
    assertThat(made).hasSize(2);
    JsonObject body = lastBulkInsert();
    assertThat(body.get("count").getAsLong()).isEqualTo(3);
    assertThat(body.get("minCount").getAsLong()).isEqualTo(2);

    assertThatThrownBy(() -> provider.launch(request("prod", "launch-m2", offering(ZONE, CapacityType.SPOT), 1, null,
        Map.of(), "gpu-4")))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.INSUFFICIENT_CAPACITY);
          assertThat(e.getMessage()).contains("ZONE_RESOURCE_POOL_EXHAUSTED", "does not have enough resources");
        });
    // Standard capacity is another pool.
    assertThat(provider.launch(request("prod", "launch-m3", offering(ZONE, CapacityType.ON_DEMAND), 1, null,
        Map.of(), "gpu-4"))).hasSize(1);
    // Deleting gives spot capacity back.
    provider.terminate(made.get(0));
    assertThat(provider.launch(request("prod", "launch-m4", offering(ZONE, CapacityType.SPOT), 1, null,
        Map.of(), "gpu-5"))).hasSize(1);
  }

  @Test
  void operationErrorsAreTyped() {
    fake.failNextBulkInsertOperation("ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS", "The zone 'projects/squall-test/zones/"
        + ZONE + "' does not have enough resources available to fulfill the request. '(resource type:compute)'.");
    assertThatThrownBy(() -> provider.launch(gang("launch-e1", CapacityType.SPOT, "gpu-1")))
        .isInstanceOfSatisfying(ProviderException.class,
            e -> assertThat(e.kind()).isEqualTo(Kind.INSUFFICIENT_CAPACITY));
    fake.failNextBulkInsertOperation("QUOTA_EXCEEDED", "Quota 'PREEMPTIBLE_NVIDIA_H100_GPUS' exceeded.  Limit: 16.0 in region us-central1.");
    assertThatThrownBy(() -> provider.launch(gang("launch-e2", CapacityType.SPOT, "gpu-1")))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.QUOTA_EXCEEDED);
          assertThat(e.getMessage()).contains("PREEMPTIBLE_NVIDIA_H100_GPUS");
        });
    assertThat(fake.instanceCount()).isZero();
  }

  @Test
  void httpErrorsAreTypedAndNotRetriedByGax() {
    fake.failNext("bulkInsert", new FakeGce.HttpFailure(503, "backendError", "Internal error. Please try again."));
    assertThatThrownBy(() -> provider.launch(gang("launch-h1", CapacityType.SPOT, "gpu-1")))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
          assertThat(e.getMessage()).contains("503", "backendError", "Internal error");
        });
    assertThat(fake.requests("POST", "/instances/bulkInsert")).hasSize(1);

    fake.failNext("aggregatedList", new FakeGce.HttpFailure(401, "required", "Login Required."));
    assertThatThrownBy(() -> provider.list("prod")).isInstanceOfSatisfying(ProviderException.class,
        e -> assertThat(e.kind()).isEqualTo(Kind.UNAUTHORIZED));
    fake.failNext("machineTypes", FakeGce.rateLimited());
    assertThatThrownBy(() -> provider.offerings(List.of(TYPE))).isInstanceOfSatisfying(ProviderException.class,
        e -> assertThat(e.kind()).isEqualTo(Kind.THROTTLED));
    assertThat(fake.requests("GET", "/machineTypes/" + TYPE)).hasSize(1);
  }

  @Test
  void nodeNamesGceRefusesAreInvalidBeforeAnyCall() {
    assertThatThrownBy(() -> provider.launch(gang("launch-n", CapacityType.SPOT, "GPU_1")))
        .isInstanceOfSatisfying(ProviderException.class, e -> assertThat(e.kind()).isEqualTo(Kind.INVALID));
    assertThat(fake.requests()).isEmpty();
  }

  @Test
  void operationsArePolledUntilDone() {
    fake.pollsUntilDone(3);
    assertThat(provider.launch(gang("launch-poll", CapacityType.SPOT, "gpu-1"))).hasSize(1);
    assertThat(fake.requests("POST", "/wait")).hasSizeGreaterThanOrEqualTo(3);
  }

  @Test
  void anOperationStillRunningAtTheTimeoutIsTransient() throws Exception {
    fake.pollsUntilDone(1_000_000);
    try (GcpProvider impatient = new GcpProvider(GcpSettings.builder(GcpProviderContractTest.PROJECT,
        GcpProviderContractTest.REGION, List.of(ZONE)).endpoint(fake.endpoint())
        .credentialsProvider(com.google.api.gax.core.NoCredentialsProvider.create())
        .sourceImage("img").operationTimeout(Duration.ofMillis(200)).build())) {
      assertThatThrownBy(() -> impatient.launch(request("prod", "launch-slow", offering(ZONE, CapacityType.SPOT), 1,
          null, Map.of(), "gpu-1"))).isInstanceOfSatisfying(ProviderException.class, e -> {
            assertThat(e.kind()).isEqualTo(Kind.TRANSIENT);
            assertThat(e.getMessage()).contains("still RUNNING");
          });
    }
  }

  @Test
  void offeringsComeFromMachineTypesAndThePriceTable() {
    List<Offering> all = provider.offerings(List.of(TYPE, "n2-standard-8", "no-such-type"));
    assertThat(all).extracting(Offering::key).containsExactly(
        TYPE + "/us-central1-a/SPOT", TYPE + "/us-central1-a/ON_DEMAND",
        TYPE + "/us-central1-b/SPOT", TYPE + "/us-central1-b/ON_DEMAND",
        "n2-standard-8/us-central1-c/SPOT", "n2-standard-8/us-central1-c/ON_DEMAND");
    assertThat(all.get(0).pricePerHour()).isEqualTo(LIST.spot());
    assertThat(all.get(1).pricePerHour()).isEqualTo(LIST.onDemand());
    assertThat(all.get(4).pricePerHour()).isZero();
    int asked = fake.requests().size();
    provider.offerings(List.of(TYPE));
    assertThat(fake.requests()).hasSize(asked);

    List<SpotPrice> spot = provider.spotPrices(List.of(TYPE, "n2-standard-8"));
    assertThat(spot).extracting(SpotPrice::zone).containsExactly("us-central1-a", "us-central1-b");
    assertThat(spot).allSatisfy(p -> assertThat(p.pricePerHour()).isEqualTo(LIST.spot()));
  }

  @Test
  void listFiltersOnTheClusterLabelAndFoldsStatuses() {
    provider.launch(gang("launch-l1", CapacityType.SPOT, "gpu-2", "gpu-1"));
    provider.launch(request("prod", "launch-l2", offering("us-central1-b", CapacityType.ON_DEMAND), 1, null, Map.of(),
        "gpu-0"));
    provider.launch(request("other", "launch-l3", offering(ZONE, CapacityType.SPOT), 1, null, Map.of(), "gpu-9"));
    fake.setStatus(ZONE, "gpu-1", "RUNNING");
    fake.setStatus(ZONE, "gpu-2", "TERMINATED");

    List<Instance> listed = provider.list("prod");
    assertThat(listed).extracting(Instance::nodeName).containsExactly("gpu-0", "gpu-1", "gpu-2");
    assertThat(listed).extracting(Instance::state)
        .containsExactly(InstanceState.PENDING, InstanceState.RUNNING, InstanceState.STOPPING);
    assertThat(listed.get(0).offering().zone()).isEqualTo("us-central1-b");
    assertThat(listed.get(0).offering().capacityType()).isEqualTo(CapacityType.ON_DEMAND);
    assertThat(listed.get(1).offering().capacityType()).isEqualTo(CapacityType.SPOT);
    FakeGce.Request call = fake.requests("GET", "/aggregated/instances").get(0);
    assertThat(call.query().get("filter")).isEqualTo("labels.squall-cluster = \"prod\"");
    assertThat(provider.list("other")).extracting(Instance::nodeName).containsExactly("gpu-9");
  }

  @Test
  void statusesFold() {
    assertThat(GceInstances.state("PROVISIONING")).isEqualTo(InstanceState.PENDING);
    assertThat(GceInstances.state("STAGING")).isEqualTo(InstanceState.PENDING);
    assertThat(GceInstances.state("RUNNING")).isEqualTo(InstanceState.RUNNING);
    for (String s : List.of("STOPPING", "SUSPENDING", "SUSPENDED", "TERMINATED")) {
      assertThat(GceInstances.state(s)).as(s).isEqualTo(InstanceState.STOPPING);
    }
  }

  @Test
  void terminateDeletesByZoneAndNameAndCloseLeavesInstancesRunning() {
    List<Instance> made = provider.launch(gang("launch-t", CapacityType.SPOT, "gpu-1", "gpu-2"));
    provider.terminate(made.get(0));
    assertThat(fake.requests("DELETE", "/zones/us-central1-a/instances/gpu-1")).hasSize(1);
    provider.terminate(made.get(0));
    provider.close();
    assertThat(fake.instanceCount()).isEqualTo(1);
    provider = new GcpProvider(GcpProviderContractTest.settings(fake));
  }
}
