package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/**
 * A launch call, recorded before it is made. {@code nodes} is a compressed hostlist,
 * {@code offering} the offering's key; state PENDING (recorded, outcome unknown), LAUNCHED,
 * FAILED or DROPPED.
 */
@MappedEntity("launch_intents")
public record LaunchIntentRow(@Id String token, String partitionName, String nodes, String offering,
    @Nullable String placementGroup, String state, @Nullable String detail, Instant created, Instant updated) {}
