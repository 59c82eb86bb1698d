package io.squall.core.priority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobKey;
import io.squall.core.model.JobState;
import io.squall.core.model.Partition;
import io.squall.core.model.TresBillingWeights;
import io.squall.core.model.UsageLedger;
import io.squall.core.sbatch.SbatchParser;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Running jobs are charged as they run, every PriorityCalcPeriod, each second once: a period
 * charges from the job's watermark to now, its end only the rest. Usage is billed with the job's
 * partition's TRESBillingWeights.
 */
class UsageMeterTest {
  private static final Instant T0 = Instant.parse("2026-11-21T08:00:00Z");
  private static final Duration WEEK = Duration.ofDays(7);
  private static final Duration PERIOD = Duration.ofMinutes(5);
  /** One whole 8-GPU node: 32 CPUs, 256 GiB. */
  private static final List<GpuGrant> NODE = List.of(new GpuGrant("gpu001", List.of(0, 1, 2, 3, 4, 5, 6, 7), 32,
      262_144));
  private final UsageMeter meter = new UsageMeter(
      new FairSharePolicy(FairShareAlgorithm.FAIR_TREE, PERIOD, WEEK), List.of(Partition.of("gpu", List.of("gpu001")),
      Partition.of("cpu", List.of("gpu001")).withBillingWeights(TresBillingWeights.parse("CPU=1.0,Mem=0.25G,GRES/gpu=2.0"))), Map.of());

  @Test
  void aRunningJobIsChargedEveryCalcPeriodAndOnlyTheRestAtItsEnd() {
    Job job = running(1, "gpu", T0);
    UsageLedger usage = meter.empty(T0);
    // Within the first period nothing is charged, nor decayed.
    assertThat(meter.charge(usage, List.of(job), T0.plus(Duration.ofMinutes(4)))).isSameAs(usage);
    UsageLedger first = meter.charge(usage, List.of(job), T0.plus(PERIOD));
    assertThat(first.of("ml", "alice")).isCloseTo(8 * 300, within(1e-9));
    assertThat(first.qosGpuSeconds().get("normal")).isCloseTo(8 * 300, within(1e-9));
    assertThat(first.chargedUntil()).containsEntry(job.key(), T0.plus(PERIOD));
    // The next period decays what was charged by 5 minutes of a week's half-life, adds 5 minutes more.
    UsageLedger second = meter.charge(first, List.of(job), T0.plus(PERIOD.multipliedBy(2)));
    double decay = Math.pow(0.5, 300.0 / WEEK.toSeconds());
    assertThat(second.of("ml", "alice")).isCloseTo(2400 * decay + 2400, within(1e-9));
    // It ends 2 minutes later: only those 2 minutes are added, and its watermark goes.
    Instant end = T0.plus(Duration.ofMinutes(12));
    UsageLedger ended = meter.ended(second, job, end);
    assertThat(ended.chargedUntil()).isEmpty();
    double twoMinutesDecay = Math.pow(0.5, 120.0 / WEEK.toSeconds());
    assertThat(ended.decayedTo(end).of("ml", "alice"))
        .isCloseTo((2400 * decay + 2400) * twoMinutesDecay + 8 * 120, within(1e-9));
    // Charged again at the next period, the ended job is not: it is no longer among the running.
    UsageLedger after = meter.charge(ended, List.of(), T0.plus(PERIOD.multipliedBy(3)));
    assertThat(after.of("ml", "alice")).isCloseTo(ended.decayedTo(T0.plus(PERIOD.multipliedBy(3))).of("ml", "alice"),
        within(1e-9));
  }

  /** A job that ends before any period charged it is charged its whole run at its end, decayed from then. */
  @Test
  void aShortJobIsChargedItsWholeRunAtItsEnd() {
    Job job = running(1, "gpu", T0);
    UsageLedger ended = meter.ended(meter.empty(T0), job, T0.plus(Duration.ofMinutes(3)));
    assertThat(ended.decayedTo(T0.plus(Duration.ofMinutes(3))).of("ml", "alice")).isCloseTo(8 * 180, within(1e-9));
    assertThat(ended.decayedTo(T0.plus(Duration.ofMinutes(3)).plus(WEEK)).of("ml", "alice"))
        .isCloseTo(8 * 180 / 2.0, within(1e-9));
  }

  /** A requeued job's next run starts after its last watermark; it is charged from its new start only. */
  @Test
  void aRunIsChargedFromItsOwnStartNotAnEarlierRunsWatermark() {
    Job first = running(1, "gpu", T0);
    UsageLedger charged = meter.charge(meter.empty(T0), List.of(first), T0.plus(PERIOD));
    // Requeued and running again from 20 minutes on, without its end having been charged.
    Job again = running(1, "gpu", T0.plus(Duration.ofMinutes(20)));
    UsageLedger next = meter.charge(charged, List.of(again), T0.plus(Duration.ofMinutes(25)));
    double decay = Math.pow(0.5, 1200.0 / WEEK.toSeconds());
    assertThat(next.of("ml", "alice")).isCloseTo(2400 * decay + 2400, within(1e-9));
  }

  /**
   * Usage is the job's billed TRES per second: CPU=1.0,Mem=0.25G,GRES/gpu=2.0 bills a whole node
   * (32 CPUs, 256 GB, 8 GPUs) 32 + 64 + 16 = 112 a second; the QOS still counts GPU-seconds.
   */
  @Test
  void usageIsWeightedByThePartitionsBillingWeights() {
    Job job = running(1, "cpu", T0);
    UsageLedger charged = meter.charge(meter.empty(T0), List.of(job), T0.plus(PERIOD));
    assertThat(charged.of("ml", "alice")).isCloseTo(112 * 300, within(1e-9));
    assertThat(charged.qosGpuSeconds().get("normal")).isCloseTo(8 * 300, within(1e-9));
    // Squall's default (no weights configured): one unit per GPU-second, whatever the CPUs and memory.
    assertThat(meter.charge(meter.empty(T0), List.of(running(2, "gpu", T0)), T0.plus(PERIOD)).of("ml", "alice"))
        .isCloseTo(8 * 300, within(1e-9));
  }

  /** Jobs still configuring (their nodes boot) have not started: nothing to charge, no watermark. */
  @Test
  void aConfiguringJobIsNotCharged() {
    Job booting = Job.pending(1, new SbatchParser(ZoneOffset.UTC).parse("#!/bin/bash\n", "j.sh", List.of(), T0)
        .request(), "alice", "ml", "normal", T0).configuring(JobKey.of(1), "gpu", NODE);
    assertThat(booting.state()).isEqualTo(JobState.CONFIGURING);
    UsageLedger charged = meter.charge(meter.empty(T0), List.of(booting), T0.plus(PERIOD));
    assertThat(charged.byAssociation()).isEmpty();
    assertThat(charged.chargedUntil()).isEmpty();
    assertThat(charged.asOf()).isEqualTo(T0.plus(PERIOD));
  }

  private static Job running(long id, String partition, Instant started) {
    return Job.pending(id, new SbatchParser(ZoneOffset.UTC).parse("#!/bin/bash\n", "j.sh", List.of(), T0).request(),
        "alice", "ml", "normal", T0).started(JobKey.of(id), partition, NODE, started);
  }
}
