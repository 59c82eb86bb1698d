package io.squall.core.priority;

import static org.assertj.core.api.Assertions.assertThat;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.Partition;
import io.squall.core.model.Qos;
import io.squall.core.model.UsageLedger;
import io.squall.core.sbatch.SbatchParser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A QOS's UsageFactor scales what its jobs charge to fair-share and GrpTRESMins: 0 is free. */
class UsageFactorTest {
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");

  /** An 8-GPU job of the QOS "scavenger" that ran for an hour and ended at T0. */
  private static Job hourOnEightGpus() {
    var request = new SbatchParser(ZoneOffset.UTC).parse("#!/bin/bash\nhostname\n", "job.sh", List.of("--gres=gpu:8"),
        T0).request();
    List<GpuGrant> grants = List.of(new GpuGrant("node-1", List.of(0, 1, 2, 3, 4, 5, 6, 7), 8, 0));
    return Job.pending(1, request, "alice", "research", "scavenger", T0.minusSeconds(7200))
        .started(JobKey.of(1), "gpu", grants, T0.minusSeconds(3600));
  }

  private static UsageLedger charged(double factor) {
    UsageMeter meter = new UsageMeter(FairSharePolicy.defaults(), List.of(Partition.of("gpu", List.of("node-1"))),
        Map.of("scavenger", Qos.normal().withUsageFactor(factor)));
    return meter.ended(meter.empty(T0), hourOnEightGpus(), T0);
  }

  @Test
  void usageIsChargedTimesTheQosUsageFactor() {
    assertThat(charged(1).of("research", "alice")).isEqualTo(8 * 3600.0);
    UsageLedger half = charged(0.5);
    assertThat(half.of("research", "alice")).isEqualTo(4 * 3600.0);
    assertThat(half.qosGpuSeconds().get("scavenger")).isEqualTo(4 * 3600.0);
    assertThat(charged(0).of("research", "alice")).isZero();
  }
}
