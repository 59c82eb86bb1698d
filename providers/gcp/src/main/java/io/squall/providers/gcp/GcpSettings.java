package io.squall.providers.gcp;

import com.google.api.gax.core.CredentialsProvider;
import io.squall.core.provider.AgentBootstrap;
import io.squall.core.provider.NodeAgent;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where and how {@link GcpProvider} makes instances.
 *
 * @param project the GCP project id
 * @param region the region of {@code zones}; compact placement policies are regional
 * @param zones the zones offerings are listed in, e.g. {@code us-central1-a}
 * @param endpoint the Compute API base address, e.g. {@code http://127.0.0.1:8080} for a fake;
 *     null for Google's ({@code https://compute.googleapis.com})
 * @param credentialsProvider null for Application Default Credentials; {@code NoCredentialsProvider}
 *     for a fake
 * @param sourceImage the boot image with the Squall agent installed, e.g.
 *     {@code projects/my-project/global/images/family/squall-node}
 * @param bootDiskGb the boot disk size
 * @param bootDiskType the boot disk type name ({@code pd-balanced}; A3 machines take no {@code pd-standard})
 * @param network the VPC network, e.g. {@code global/networks/default}
 * @param subnetwork the subnetwork, e.g. {@code regions/us-central1/subnetworks/gpu}; null for the network's
 * @param serviceAccountEmail the instances' service account; null for none
 * @param agent how the machine starts the Squall agent, and where it fetches it from when the image lacks it
 * @param prices per machine type, on-demand and spot list prices (see {@link #DEFAULT_PRICES})
 * @param operationTimeout how long a launch or delete waits for its zonal operation
 */
public record GcpSettings(String project, String region, List<String> zones, String endpoint,
    CredentialsProvider credentialsProvider, String sourceImage, int bootDiskGb, String bootDiskType,
    String network, String subnetwork, String serviceAccountEmail, NodeAgent agent,
    Map<String, MachinePrice> prices, Duration operationTimeout) {

  /**
   * The built-in list prices in USD per hour, rounded to cents, from the 2026-07-30 snapshot of
   * the Cyclenerd google-cloud-pricing-cost-calculator price tables (Apache-2.0):
   * {@code a3-highgpu-8g} (8 H100 80 GB) 88.49 on-demand and 50.61 spot, its us-central1 row;
   * {@code a3-megagpu-8g} (8 H100 80 GB Mega) 92.94 on-demand and 23.28 spot, its us-east4 row,
   * because the snapshot has no us-central1 row for it and us-east4 is its cheapest on-demand
   * region there. The {@link Builder} starts from these; prices change and differ per region, so
   * {@link Builder#onDemandPrice} and {@link Builder#spotPrice} override them or add types.
   */
  public static final Map<String, MachinePrice> DEFAULT_PRICES = Map.of(
      "a3-highgpu-8g", new MachinePrice(88.49, 50.61),
      "a3-megagpu-8g", new MachinePrice(92.94, 23.28));

  public GcpSettings {
    Objects.requireNonNull(project, "project");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(sourceImage, "sourceImage");
    Objects.requireNonNull(network, "network");
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(operationTimeout, "operationTimeout");
    zones = List.copyOf(zones);
    prices = Map.copyOf(prices);
    if (zones.isEmpty()) {
      throw new IllegalArgumentException("gcp: no zones");
    }
    for (String zone : zones) {
      if (!zone.startsWith(region + "-")) {
        throw new IllegalArgumentException("gcp: zone " + zone + " is not in region " + region);
      }
    }
    if (bootDiskGb < 10) {
      throw new IllegalArgumentException("gcp: boot disk of " + bootDiskGb + " GB");
    }
  }

  /** A builder with the defaults: default network, 200 GB pd-balanced boot disk, built-in list prices, ADC. */
  public static Builder builder(String project, String region, List<String> zones) {
    return new Builder(project, region, zones);
  }

  /** The price of a machine type, {@code (0, 0)} when the table does not know it. */
  public MachinePrice price(String machineType) {
    return prices.getOrDefault(machineType, MachinePrice.UNKNOWN);
  }

  /** Builds {@link GcpSettings}; every setter is optional but {@link #sourceImage(String)}. */
  public static final class Builder {
    private static final int BOOT_DISK_GB = 200;
    private static final String BOOT_DISK_TYPE = "pd-balanced";

    private final String project;
    private final String region;
    private final List<String> zones;
    private String endpoint;
    private CredentialsProvider credentialsProvider;
    private String sourceImage;
    private String network = "global/networks/default";
    private String subnetwork;
    private String serviceAccountEmail;
    private String agentCommand = AgentBootstrap.DEFAULT_AGENT_COMMAND;
    private String agentArchiveUrl;
    private String controllerCa;
    private Duration operationTimeout = Duration.ofMinutes(10);
    private final Map<String, MachinePrice> prices = new HashMap<>(DEFAULT_PRICES);

    private Builder(String project, String region, List<String> zones) {
      this.project = project;
      this.region = region;
      this.zones = List.copyOf(zones);
    }

    public Builder endpoint(String endpoint) {
      this.endpoint = endpoint;
      return this;
    }

    public Builder credentialsProvider(CredentialsProvider credentialsProvider) {
      this.credentialsProvider = credentialsProvider;
      return this;
    }

    public Builder sourceImage(String sourceImage) {
      this.sourceImage = sourceImage;
      return this;
    }

    public Builder network(String network, String subnetwork) {
      this.network = network;
      this.subnetwork = subnetwork;
      return this;
    }

    public Builder serviceAccountEmail(String serviceAccountEmail) {
      this.serviceAccountEmail = serviceAccountEmail;
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

    public Builder operationTimeout(Duration operationTimeout) {
      this.operationTimeout = operationTimeout;
      return this;
    }

    /**
     * Sets the on-demand price of {@code machineType} in USD per hour over the list so far; its
     * spot price stays as listed (0, unknown, for a type the list does not have).
     */
    public Builder onDemandPrice(String machineType, double usdPerHour) {
      prices.put(machineType, price(machineType).withOnDemand(usdPerHour));
      return this;
    }

    /**
     * Sets the spot price of {@code machineType} in USD per hour over the list so far; its
     * on-demand price stays as listed (0, unknown, for a type the list does not have).
     */
    public Builder spotPrice(String machineType, double usdPerHour) {
      prices.put(machineType, price(machineType).withSpot(usdPerHour));
      return this;
    }

    private MachinePrice price(String machineType) {
      return prices.getOrDefault(Objects.requireNonNull(machineType, "machineType"), MachinePrice.UNKNOWN);
    }

    public GcpSettings build() {
      return new GcpSettings(project, region, zones, endpoint, credentialsProvider, sourceImage, BOOT_DISK_GB,
          BOOT_DISK_TYPE, network, subnetwork, serviceAccountEmail, new NodeAgent(agentCommand, agentArchiveUrl, controllerCa), prices, operationTimeout);
    }
  }
}
