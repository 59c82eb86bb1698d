package io.squall.cli.service;

import java.time.Instant;
import java.util.List;

/**
 * A node as {@code GET /v1/nodes} lists it; {@code state} uses Squall's names (IDLE, MIXED, CLOUD,
 * ...); {@code reasonUser} and {@code reasonTime} say who set the reason and when (null when unknown).
 */
public record NodeInfo(
    String name,
    String state,
    String reason,
    String reasonUser,
    Instant reasonTime,
    List<String> partitions,
    Integer gpus,
    Integer gpusAllocated,
    String gpuType,
    Integer cpus,
    Long memoryMb,
    List<String> features,
    String placementGroup,
    List<String> jobs,
    Instant lastHeartbeat) {
  /** Reads one from the service's JSON. */
  static NodeInfo from(JsonAnswer a) {
    return new NodeInfo(
        a.requiredString("name"),
        a.string("state"),
        a.string("reason"),
        a.string("reason_user"),
        a.instant("reason_time"),
        a.strings("partitions"),
        a.integer("gpus"),
        a.integer("gpus_allocated"),
        a.string("gpu_type"),
        a.integer("cpus"),
        a.longValue("memory_mb"),
        a.strings("features"),
        a.string("placement_group"),
        a.strings("jobs"),
        a.instant("last_heartbeat"));
  }

  public NodeInfo {
    partitions = partitions == null ? List.of() : List.copyOf(partitions);
    features = features == null ? List.of() : List.copyOf(features);
    jobs = jobs == null ? List.of() : List.copyOf(jobs);
  }
}
