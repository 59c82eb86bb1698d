package io.squall.cli.service;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A partition as {@code GET /v1/partitions} lists it.
 *
 * @param isDefault the JSON {@code default} (a Java keyword)
 * @param maxTimeMinutes null means no limit
 */
public record PartitionInfo(
    String name,
    @JsonProperty("default") Boolean isDefault,
    String nodes,
    Integer totalNodes,
    Integer totalGpus,
    Long maxTimeMinutes,
    Long defaultTimeMinutes,
    Integer maxNodes,
    Integer priorityTier,
    String state) {

  public boolean defaultPartition() {
    return Boolean.TRUE.equals(isDefault);
  }
}
