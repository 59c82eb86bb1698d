package io.squall.api.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.UsageLedger;
import io.squall.core.sbatch.SbatchParser;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A QOS's UsageFactor scales what its jobs charge to fair-share and GrpTRESMins: 0 is free. */
class UsageFactorTest {
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");

  /** An 8-GPU job of the QOS that ran for an hour and ended at T0. */
  private static StoredJob hourOnEightGpus() {
    var request = new SbatchParser(ZoneOffset.UTC).parse("#!/bin/bash\nhostname\n", "job.sh", List.of("--gres=gpu:8"),
        T0).request();
    List<GpuGrant> grants = List.of(new GpuGrant("node-1", List.of(0, 1, 2, 3, 4, 5, 6, 7), 8, 0));
    Job job = Job.pending(1, request, "alice", "research", "scavenger", T0.minusSeconds(7200))
        .started(JobKey.of(1), "gpu", grants, T0.minusSeconds(3600)).finished(JobState.COMPLETED, 0, T0);
    Submission s = new Submission(1, "job.sh", "", List.of(), List.of(), Map.of(), "/tmp", T0.minusSeconds(7200));
    return new StoredJob(job, s, "None", null, null, null, null, grants, null);
  }

  @Test
  void usageIsChargedTimesTheQosUsageFactor() {
    UsageLedger empty = UsageLedger.empty(T0, Duration.ofDays(7));
    UsageLedger full = StateLoader.withUsage(empty, hourOnEightGpus(), T0, 1);
    assertThat(full.of("research", "alice")).isEqualTo(8 * 3600.0);
    UsageLedger half = StateLoader.withUsage(empty, hourOnEightGpus(), T0, 0.5);
    assertThat(half.of("research", "alice")).isEqualTo(4 * 3600.0);
    assertThat(half.qosGpuSeconds().get("scavenger")).isEqualTo(4 * 3600.0);
    assertThat(StateLoader.withUsage(empty, hourOnEightGpus(), T0, 0).of("research", "alice")).isZero();
  }
}
