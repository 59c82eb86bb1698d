package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import io.micronaut.data.annotation.Version;

/** A node as its agent last reported it; {@code features} is comma-separated. */
@MappedEntity("nodes")
public record NodeRow(@Id String name, String state, @Nullable String reason, @Nullable String address, int gpus,
    @Nullable String gpuType, int cpus, long memoryMb, String features, @Nullable String placementGroup,
    @Version Long version) {}
