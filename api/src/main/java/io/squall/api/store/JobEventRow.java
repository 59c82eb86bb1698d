package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.GeneratedValue;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/** One state change of a job. */
@MappedEntity("job_events")
public record JobEventRow(@Id @GeneratedValue @Nullable Long id, String jobKey, Instant eventTime, String state,
    String reason) {}
