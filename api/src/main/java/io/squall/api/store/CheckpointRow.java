package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.GeneratedValue;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/** A checkpoint a job registered: its step (the job's own counter) and where it lies. */
@MappedEntity("checkpoints")
public record CheckpointRow(@Id @GeneratedValue @Nullable Long id, String jobKey, long step, String path,
    @Nullable String nodeName, Instant registered) {}
