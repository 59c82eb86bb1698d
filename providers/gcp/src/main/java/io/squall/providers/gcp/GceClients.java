package io.squall.providers.gcp;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.rpc.ClientSettings;
import com.google.api.gax.rpc.UnaryCallSettings;
import com.google.cloud.compute.v1.InstancesClient;
import com.google.cloud.compute.v1.InstancesSettings;
import com.google.cloud.compute.v1.MachineTypesClient;
import com.google.cloud.compute.v1.MachineTypesSettings;
import com.google.cloud.compute.v1.RegionOperationsClient;
import com.google.cloud.compute.v1.RegionOperationsSettings;
import com.google.cloud.compute.v1.ResourcePoliciesClient;
import com.google.cloud.compute.v1.ResourcePoliciesSettings;
import com.google.cloud.compute.v1.ZoneOperationsClient;
import com.google.cloud.compute.v1.ZoneOperationsSettings;
import io.squall.core.provider.ProviderException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The Compute Engine REST clients the provider uses, built once from {@link GcpSettings}: the
 * configured endpoint and credentials, and no gax retries (the caller owns the retry policy).
 */
final class GceClients implements AutoCloseable {
  final InstancesClient instances;
  final MachineTypesClient machineTypes;
  final ResourcePoliciesClient resourcePolicies;
  final ZoneOperationsClient zoneOperations;
  final RegionOperationsClient regionOperations;

  private GceClients(InstancesClient instances, MachineTypesClient machineTypes,
      ResourcePoliciesClient resourcePolicies, ZoneOperationsClient zoneOperations,
      RegionOperationsClient regionOperations) {
    this.instances = instances;
    this.machineTypes = machineTypes;
    this.resourcePolicies = resourcePolicies;
    this.zoneOperations = zoneOperations;
    this.regionOperations = regionOperations;
  }

  static GceClients create(GcpSettings settings) {
    List<AutoCloseable> made = new ArrayList<>();
    try {
      InstancesClient instances = keep(made, InstancesClient.create(
          configure(InstancesSettings.newBuilder(), settings).applyToAllUnaryMethods(GceClients::singleAttempt).build()));
      MachineTypesClient machineTypes = keep(made, MachineTypesClient.create(
          configure(MachineTypesSettings.newBuilder(), settings).applyToAllUnaryMethods(GceClients::singleAttempt).build()));
      ResourcePoliciesClient policies = keep(made, ResourcePoliciesClient.create(
          configure(ResourcePoliciesSettings.newBuilder(), settings).applyToAllUnaryMethods(GceClients::singleAttempt).build()));
      ZoneOperationsClient zoneOps = keep(made, ZoneOperationsClient.create(
          configure(ZoneOperationsSettings.newBuilder(), settings).applyToAllUnaryMethods(GceClients::singleAttempt).build()));
      RegionOperationsClient regionOps = keep(made, RegionOperationsClient.create(
          configure(RegionOperationsSettings.newBuilder(), settings).applyToAllUnaryMethods(GceClients::singleAttempt).build()));
      return new GceClients(instances, machineTypes, policies, zoneOps, regionOps);
    } catch (IOException | RuntimeException e) {
      closeAll(made);
      throw new ProviderException(ProviderException.Kind.INVALID, "gcp: cannot create Compute clients: " + e, e);
    }
  }

  private static <B extends ClientSettings.Builder<?, ?>> B configure(B builder, GcpSettings settings) {
    if (settings.endpoint() != null) {
      builder.setEndpoint(settings.endpoint());
    }
    CredentialsProvider credentials = settings.credentialsProvider();
    if (credentials != null) {
      builder.setCredentialsProvider(credentials);
    }
    return builder;
  }

  /** One attempt per call: no retryable codes, at most one attempt. */
  private static Void singleAttempt(UnaryCallSettings.Builder<?, ?> call) {
    call.setRetryableCodes(Set.of());
    call.setRetrySettings(call.getRetrySettings().toBuilder().setMaxAttempts(1).build());
    return null;
  }

  private static <T extends AutoCloseable> T keep(List<AutoCloseable> made, T client) {
    made.add(client);
    return client;
  }

  private static void closeAll(List<AutoCloseable> clients) {
    for (AutoCloseable c : clients) {
      try {
        c.close();
      } catch (Exception ignored) {
        // closing is best effort
      }
    }
  }

  @Override
  public void close() {
    closeAll(List.of(instances, machineTypes, resourcePolicies, zoneOperations, regionOperations));
  }
}
