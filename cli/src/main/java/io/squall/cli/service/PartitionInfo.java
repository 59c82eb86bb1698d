package io.squall.cli.service;

/**
 * A partition as {@code GET /v1/partitions} lists it.
 *
 * @param isDefault the JSON {@code default} (a Java keyword)
 * @param maxTimeMinutes null means no limit
 */
public record PartitionInfo(
    String name,
    Boolean isDefault,
    String nodes,
    Integer totalNodes,
    Integer totalGpus,
    Long maxTimeMinutes,
    Long defaultTimeMinutes,
    Integer maxNodes,
    Integer priorityTier,
    String state) {
  /** Reads one from the service's JSON. */
  static PartitionInfo from(JsonAnswer a) {
    return new PartitionInfo(
        a.requiredString("name"),
        a.bool("default"),
        a.string("nodes"),
        a.integer("total_nodes"),
        a.integer("total_gpus"),
        a.longValue("max_time_minutes"),
        a.longValue("default_time_minutes"),
        a.integer("max_nodes"),
        a.integer("priority_tier"),
        a.string("state"));
  }

  public boolean defaultPartition() {
    return Boolean.TRUE.equals(isDefault);
  }
}
