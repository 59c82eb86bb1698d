package io.squall.api.store;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.GeneratedValue;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;

/**
 * An interruption notice as received, one row per job it hit (job null when none ran on the
 * node); {@code outcome} and {@code lostGpuSeconds} are filled in once the job was stopped.
 */
@MappedEntity("interruptions")
public record InterruptionRow(@Id @GeneratedValue @Nullable Long id, String nodeName, @Nullable String instanceId,
    String source, String kind, Instant noticedAt, Instant deadline, String detail, @Nullable String jobKey,
    @Nullable String outcome, @Nullable Double lostGpuSeconds, @Nullable Instant handledAt) {

  public InterruptionRow handled(String why, Double lost, Instant at) {
    return new InterruptionRow(id, nodeName, instanceId, source, kind, noticedAt, deadline, detail, jobKey, why, lost,
        at);
  }

  /**
   * Whether it stopped its job (what max-restarts counts): recorded with its cost, or still being
   * handled; not one that found the job drained already.
   */
  public boolean stoppedJob() {
    return lostGpuSeconds != null || handledAt == null;
  }
}
