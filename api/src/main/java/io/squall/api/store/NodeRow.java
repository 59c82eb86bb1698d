package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import io.micronaut.data.annotation.Version;
import java.time.Instant;

/**
 * A node as its agent last reported it; {@code features} is comma-separated, {@code reasonUser} and
 * {@code reasonTime} say who set {@code reason} and when.
 */
@MappedEntity("nodes")
public record NodeRow(@Id String name, String state, @Nullable String reason, @Nullable String reasonUser,
    @Nullable Instant reasonTime, @Nullable String address, int gpus, @Nullable String gpuType, int cpus,
    long memoryMb, String features, @Nullable String placementGroup, @Version Long version) {}
