package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/** An advanced reservation; {@code nodes}, {@code users}, {@code accounts} and {@code flags} are comma-separated. */
@MappedEntity("reservations")
public record ReservationRow(@Id String name, Instant startTime, Instant endTime, String nodes,
    @Nullable String partitionName, String users, String accounts, String flags) {}
