package io.squall.infra.gcp;

import java.util.List;

/**
 * The controller's custom role: exactly the Compute Engine permissions {@code providers/gcp}'s
 * calls need (IamCoverageTest derives those from the provider's bytecode and holds this list to
 * them). No predefined role is this narrow: roles/compute.instanceAdmin.v1 also stops, resets,
 * attaches disks and changes any instance in the project.
 *
 * <p>A bulkInsert is {@code instances.create} plus what the instance it asks for uses: a new boot
 * disk from an image, the network and subnetwork, labels, metadata (the startup script), a service
 * account and the compact placement policy. Acting as the nodes' service account
 * ({@code iam.serviceAccounts.actAs}) is granted on that one account, not here.
 */
final class ComputePermissions {
  static final List<String> CONTROLLER = List.of(
      "compute.disks.create",
      "compute.images.useReadOnly",
      "compute.instances.create",
      "compute.instances.delete",
      "compute.instances.get",
      "compute.instances.list",
      "compute.instances.setLabels",
      "compute.instances.setMetadata",
      "compute.instances.setServiceAccount",
      "compute.machineTypes.get",
      "compute.networks.use",
      "compute.regionOperations.get",
      "compute.resourcePolicies.create",
      "compute.resourcePolicies.use",
      "compute.subnetworks.use",
      "compute.zoneOperations.get");

  private ComputePermissions() {}
}
