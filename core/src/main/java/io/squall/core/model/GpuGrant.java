package io.squall.core.model;

import java.util.List;

/**
 * What one node gives one job.
 *
 * @param gpuIndices the node-local GPU indices (what CUDA_VISIBLE_DEVICES will list), ascending
 */
public record GpuGrant(String node, List<Integer> gpuIndices, int cpus, long memoryMb) {
  public GpuGrant {
    gpuIndices = List.copyOf(gpuIndices);
  }
}
