package io.squall.api.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.squall.core.provider.AgentBootstrap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The AWS EC2 provider ({@code squall.aws.*}): region, subnets per zone, the image or launch template, network and IAM settings. Credentials come from the AWS SDK's default chain (environment, profile, instance role). */
@ConfigurationProperties("squall.aws")
public class AwsProviderConfig {
  private String region = "us-east-1";
  private String endpoint;
  private Map<String, String> subnets = new LinkedHashMap<>();
  private String imageId;
  private String launchTemplate;
  private String launchTemplateVersion;
  private List<String> securityGroupIds = new ArrayList<>();
  private String instanceProfile;
  private String keyName;
  private String agentCommand = AgentBootstrap.DEFAULT_AGENT_COMMAND;
  private String agentArchiveUrl;
  private Double maxSpotPrice;
  private Map<String, Double> onDemandPrices = new LinkedHashMap<>();
  private Map<String, Double> spotInterruptionsPerNodeHour = new LinkedHashMap<>();
  private Map<String, Integer> efaInterfaces = new LinkedHashMap<>();
  private String interruptionQueueUrl;
  private String sqsEndpoint;

  public String getRegion() {
    return region;
  }

  public void setRegion(String region) {
    this.region = region;
  }

  public String getEndpoint() {
    return endpoint;
  }

  public void setEndpoint(String endpoint) {
    this.endpoint = endpoint;
  }

  public Map<String, String> getSubnets() {
    return subnets;
  }

  public void setSubnets(Map<String, String> subnets) {
    this.subnets = subnets;
  }

  public String getImageId() {
    return imageId;
  }

  public void setImageId(String imageId) {
    this.imageId = imageId;
  }

  public String getLaunchTemplate() {
    return launchTemplate;
  }

  public void setLaunchTemplate(String launchTemplate) {
    this.launchTemplate = launchTemplate;
  }

  public String getLaunchTemplateVersion() {
    return launchTemplateVersion;
  }

  public void setLaunchTemplateVersion(String launchTemplateVersion) {
    this.launchTemplateVersion = launchTemplateVersion;
  }

  public List<String> getSecurityGroupIds() {
    return securityGroupIds;
  }

  public void setSecurityGroupIds(List<String> securityGroupIds) {
    this.securityGroupIds = securityGroupIds;
  }

  public String getInstanceProfile() {
    return instanceProfile;
  }

  public void setInstanceProfile(String instanceProfile) {
    this.instanceProfile = instanceProfile;
  }

  public String getKeyName() {
    return keyName;
  }

  public void setKeyName(String keyName) {
    this.keyName = keyName;
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

  public Double getMaxSpotPrice() {
    return maxSpotPrice;
  }

  public void setMaxSpotPrice(Double maxSpotPrice) {
    this.maxSpotPrice = maxSpotPrice;
  }

  /**
   * On-demand USD per node-hour by instance type, over the built-in table: a listed type's price
   * is replaced, any other type is added, the rest of the table stays.
   */
  public Map<String, Double> getOnDemandPrices() {
    return onDemandPrices;
  }

  public void setOnDemandPrices(Map<String, Double> onDemandPrices) {
    this.onDemandPrices = onDemandPrices;
  }

  /**
   * Interruptions per node-hour to expect of spot instances by instance type, in place of the AWS
   * Spot Instance Advisor's bucket for the region (the built-in snapshot); other types keep theirs.
   */
  public Map<String, Double> getSpotInterruptionsPerNodeHour() {
    return spotInterruptionsPerNodeHour;
  }

  public void setSpotInterruptionsPerNodeHour(Map<String, Double> spotInterruptionsPerNodeHour) {
    this.spotInterruptionsPerNodeHour = spotInterruptionsPerNodeHour;
  }

  /** Network cards given an EFA interface at launch, by instance type, over the provider's built-in table; 0 turns EFA off for a type. */
  public Map<String, Integer> getEfaInterfaces() {
    return efaInterfaces;
  }

  public void setEfaInterfaces(Map<String, Integer> efaInterfaces) {
    this.efaInterfaces = efaInterfaces;
  }

  /** The SQS queue EventBridge delivers EC2 interruption events to; none: agents' notices only. */
  public String getInterruptionQueueUrl() {
    return interruptionQueueUrl;
  }

  public void setInterruptionQueueUrl(String interruptionQueueUrl) {
    this.interruptionQueueUrl = interruptionQueueUrl;
  }

  /** An SQS endpoint override (tests, VPC endpoints); default: the region's. */
  public String getSqsEndpoint() {
    return sqsEndpoint;
  }

  public void setSqsEndpoint(String sqsEndpoint) {
    this.sqsEndpoint = sqsEndpoint;
  }
}
