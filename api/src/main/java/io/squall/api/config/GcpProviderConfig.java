package io.squall.api.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.squall.core.provider.AgentBootstrap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Google Compute Engine provider ({@code squall.gcp.*}): project, region and zones, the boot image, network and service account, prices over the built-in list. Credentials are Application Default Credentials. */
@ConfigurationProperties("squall.gcp")
public class GcpProviderConfig {
  private String project;
  private String region = "us-central1";
  private List<String> zones = new ArrayList<>();
  private String endpoint;
  private String sourceImage;
  private String network = "global/networks/default";
  private String subnetwork;
  private String serviceAccountEmail;
  private String agentCommand = AgentBootstrap.DEFAULT_AGENT_COMMAND;
  private String agentArchiveUrl;
  private Map<String, Double> onDemandPrices = new LinkedHashMap<>();
  private Map<String, Double> spotPrices = new LinkedHashMap<>();

  public String getProject() {
    return project;
  }

  public void setProject(String project) {
    this.project = project;
  }

  public String getRegion() {
    return region;
  }

  public void setRegion(String region) {
    this.region = region;
  }

  public List<String> getZones() {
    return zones;
  }

  public void setZones(List<String> zones) {
    this.zones = zones;
  }

  public String getEndpoint() {
    return endpoint;
  }

  public void setEndpoint(String endpoint) {
    this.endpoint = endpoint;
  }

  public String getSourceImage() {
    return sourceImage;
  }

  public void setSourceImage(String sourceImage) {
    this.sourceImage = sourceImage;
  }

  public String getNetwork() {
    return network;
  }

  public void setNetwork(String network) {
    this.network = network;
  }

  public String getSubnetwork() {
    return subnetwork;
  }

  public void setSubnetwork(String subnetwork) {
    this.subnetwork = subnetwork;
  }

  public String getServiceAccountEmail() {
    return serviceAccountEmail;
  }

  public void setServiceAccountEmail(String serviceAccountEmail) {
    this.serviceAccountEmail = serviceAccountEmail;
  }

  public String getAgentCommand() {
    return agentCommand;
  }

  public void setAgentCommand(String agentCommand) {
    this.agentCommand = agentCommand;
  }

  /** Where machines whose image lacks the agent fetch its archive at boot (s3://, gs:// or https://); none by default. */
  public String getAgentArchiveUrl() {
    return agentArchiveUrl;
  }

  public void setAgentArchiveUrl(String agentArchiveUrl) {
    this.agentArchiveUrl = agentArchiveUrl;
  }

  /**
   * On-demand USD per node-hour by machine type, over the built-in list prices: a listed type's
   * on-demand price is replaced (its spot price kept), any other type is added (spot unknown).
   */
  public Map<String, Double> getOnDemandPrices() {
    return onDemandPrices;
  }

  public void setOnDemandPrices(Map<String, Double> onDemandPrices) {
    this.onDemandPrices = onDemandPrices;
  }

  /** Spot USD per node-hour by machine type, over the built-in list prices as {@link #getOnDemandPrices()}. */
  public Map<String, Double> getSpotPrices() {
    return spotPrices;
  }

  public void setSpotPrices(Map<String, Double> spotPrices) {
    this.spotPrices = spotPrices;
  }
}
