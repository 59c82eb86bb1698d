package io.squall.api.store;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/** A running job charged to fair-share up to {@code chargedUntil}. */
@MappedEntity("usage_watermarks")
public record UsageWatermarkRow(@Id String jobKey, Instant chargedUntil) {}
