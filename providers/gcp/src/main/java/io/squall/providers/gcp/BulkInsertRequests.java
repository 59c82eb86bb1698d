package io.squall.providers.gcp;

import com.google.cloud.compute.v1.AttachedDisk;
import com.google.cloud.compute.v1.AttachedDiskInitializeParams;
import com.google.cloud.compute.v1.BulkInsertInstanceRequest;
import com.google.cloud.compute.v1.BulkInsertInstanceResource;
import com.google.cloud.compute.v1.BulkInsertInstanceResourcePerInstanceProperties;
import com.google.cloud.compute.v1.InstanceProperties;
import com.google.cloud.compute.v1.Items;
import com.google.cloud.compute.v1.Metadata;
import com.google.cloud.compute.v1.NetworkInterface;
import com.google.cloud.compute.v1.Scheduling;
import com.google.cloud.compute.v1.ServiceAccount;
import io.squall.core.provider.AgentBootstrap;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.LaunchRequest;
import io.squall.core.provider.NodeLaunch;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link LaunchRequest} as one zonal {@code instances.bulkInsert}: {@code count} and
 * {@code minCount} from the request, one instance per node named after it, the offering's
 * machine type and provisioning model, the configured image and network, Squall's labels and
 * metadata, the agent's start-up script and the compact placement policy.
 */
final class BulkInsertRequests {
  /** Prints the instance's name: the key {@link AgentBootstrap} picks this machine's node by. */
  static final String IDENTITY_COMMAND =
      "curl -fsS --retry 10 --retry-connrefused -H 'Metadata-Flavor: Google'"
          + " http://metadata.google.internal/computeMetadata/v1/instance/name";

  private final GcpSettings settings;

  BulkInsertRequests(GcpSettings settings) {
    this.settings = settings;
  }

  /**
   * @param names the instance names, one per node in request order (already checked)
   * @param placementPolicy the compact placement policy's name, null for none
   */
  BulkInsertInstanceRequest build(LaunchRequest request, List<String> names, String placementPolicy) {
    BulkInsertInstanceResource.Builder resource = BulkInsertInstanceResource.newBuilder()
        .setCount(request.count())
        .setMinCount(request.minCount())
        .setInstanceProperties(properties(request, names, placementPolicy));
    for (String name : names) {
      resource.putPerInstanceProperties(name, BulkInsertInstanceResourcePerInstanceProperties.newBuilder().setName(name).build());
    }
    return BulkInsertInstanceRequest.newBuilder()
        .setProject(settings.project())
        .setZone(request.offering().zone())
        .setRequestId(GceNames.requestId(request.idempotencyToken()))
        .setBulkInsertInstanceResourceResource(resource.build())
        .build();
  }

  private InstanceProperties properties(LaunchRequest request, List<String> names, String placementPolicy) {
    InstanceProperties.Builder p = InstanceProperties.newBuilder()
        .setMachineType(request.offering().instanceType())
        .setScheduling(scheduling(request))
        .addDisks(bootDisk())
        .addNetworkInterfaces(networkInterface())
        .putAllLabels(labels(request))
        .setMetadata(metadata(request, names));
    if (placementPolicy != null) {
      p.addResourcePolicies(placementPolicy);
    }
    if (settings.serviceAccountEmail() != null) {
      p.addServiceAccounts(ServiceAccount.newBuilder().setEmail(settings.serviceAccountEmail())
          .addScopes("https://www.googleapis.com/auth/cloud-platform"));
    }
    return p.build();
  }

  /** SPOT deletes on preemption; GPUs (and spot) cannot live-migrate, so host maintenance terminates. */
  private Scheduling scheduling(LaunchRequest request) {
    boolean spot = request.offering().capacityType() == CapacityType.SPOT;
    boolean gpus = request.nodes().stream().anyMatch(n -> n.node().gpus() > 0);
    Scheduling.Builder s = Scheduling.newBuilder()
        .setProvisioningModel((spot ? Scheduling.ProvisioningModel.SPOT : Scheduling.ProvisioningModel.STANDARD).name())
        .setOnHostMaintenance((spot || gpus ? Scheduling.OnHostMaintenance.TERMINATE : Scheduling.OnHostMaintenance.MIGRATE).name())
        .setAutomaticRestart(!spot);
    if (spot) {
      s.setInstanceTerminationAction(Scheduling.InstanceTerminationAction.DELETE.name());
    }
    return s.build();
  }

  private AttachedDisk bootDisk() {
    return AttachedDisk.newBuilder()
        .setBoot(true)
        .setAutoDelete(true)
        .setInitializeParams(AttachedDiskInitializeParams.newBuilder()
            .setSourceImage(settings.sourceImage())
            .setDiskSizeGb(settings.bootDiskGb())
            .setDiskType(settings.bootDiskType()))
        .build();
  }

  private NetworkInterface networkInterface() {
    NetworkInterface.Builder n = NetworkInterface.newBuilder().setNetwork(settings.network());
    if (settings.subnetwork() != null) {
      n.setSubnetwork(settings.subnetwork());
    }
    return n.build();
  }

  /** The request's tags, then Squall's labels (which win), all within GCE's label rules. */
  static Map<String, String> labels(LaunchRequest request) {
    Map<String, String> labels = new TreeMap<>();
    request.tags().forEach((k, v) -> labels.put(GceNames.labelKey(k), GceNames.labelValue(v)));
    labels.put(GceLabels.CLUSTER, GceNames.labelValue(request.cluster()));
    if (request.partition() != null) {
      labels.put(GceLabels.PARTITION, GceNames.labelValue(request.partition()));
    }
    labels.put(GceLabels.LAUNCH, GceNames.labelValue(request.idempotencyToken()));
    if (request.placementGroup() != null) {
      labels.put(GceLabels.PLACEMENT_GROUP, GceNames.labelValue(request.placementGroup()));
    }
    return labels;
  }

  /** The exact (unsanitized) Squall fields, and the start-up script naming every node of the launch. */
  private Metadata metadata(LaunchRequest request, List<String> names) {
    Map<String, String> items = new LinkedHashMap<>();
    items.put(GceLabels.CLUSTER, request.cluster());
    if (request.partition() != null) {
      items.put(GceLabels.PARTITION, request.partition());
    }
    items.put(GceLabels.LAUNCH, request.idempotencyToken());
    if (request.placementGroup() != null) {
      items.put(GceLabels.PLACEMENT_GROUP, request.placementGroup());
    }
    List<NodeLaunch> nodes = request.nodes();
    items.put(GceLabels.STARTUP_SCRIPT, AgentBootstrap.script(IDENTITY_COMMAND, names, nodes, settings.agent(),
        AgentBootstrap.Cloud.GCP));
    Metadata.Builder m = Metadata.newBuilder();
    items.forEach((k, v) -> m.addItems(Items.newBuilder().setKey(k).setValue(v)));
    return m.build();
  }
}
