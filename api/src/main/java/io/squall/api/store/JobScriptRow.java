package io.squall.api.store;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/**
 * What was submitted. {@code options}, {@code scriptArgs} and {@code environment} are JSON text;
 * {@code interactive}: an allocation of salloc or srun, without a batch script to run.
 */
@MappedEntity("job_scripts")
public record JobScriptRow(@Id Long jobId, String scriptName, String script, String options, String scriptArgs,
    String environment, String submitDir, Instant submitTime, boolean interactive) {}
