package io.squall.api.simulate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.squall.simulate.ElasticSimulation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A controller's configuration file read the controller's way, and one what-if run of it. */
class WhatIfRunTest {
  private static final ElasticSimulation.Progress NO_PROGRESS = (simulated, submitted, ended) -> { };
  private static final Instant START = Instant.parse("2026-11-01T00:00:00Z");

  @TempDir
  Path dir;

  private Path config(String name, String partitionExtra) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, """
        squall:
          cluster-name: whatif
          provider: aws
          aws:
            region: us-east-1
          accounts:
            vision:
              hard-limit-usd: 100000
          partitions:
            gpu:
              nodes: p5-[1-16]
              elastic: true
              instance-types: [p5.48xlarge]
        """ + partitionExtra);
    return f;
  }

  private static List<ElasticSimulation.JobSpec> work() {
    List<ElasticSimulation.JobSpec> out = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      out.add(new ElasticSimulation.JobSpec(Duration.ofMinutes(10L * i), 1 + i % 4, 8, Duration.ofMinutes(30 + 5L * i))
          .withAccount("vision"));
    }
    return out;
  }

  @Test
  void theConfigurationIsReadAsTheControllerReadsItAndItsPartitionReplaysTheJobs() throws Exception {
    ServiceConfig.Cluster spot = ServiceConfig.read(config("spot.yml", ""));
    assertThat(spot.name()).isEqualTo("whatif");
    assertThat(spot.region()).isEqualTo("us-east-1");
    assertThat(spot.layout().policies()).containsKey("gpu");
    ElasticSimulation.Result a = WhatIfRun.run(spot, WhatIfRun.partitions(spot, null), WhatIfRun.Cloud.BUNDLED, work(), START, 1, NO_PROGRESS);
    assertThat(a.jobsCompleted()).isEqualTo(12);
    Map<String, Object> f = WhatIfFigures.of(a, work(), Map.of(), spot.layout().budgets());
    assertThat((double) f.get("cost_ratio")).isGreaterThan(1.0);
    assertThat((long) f.get("wait_p95_s")).isGreaterThanOrEqualTo((long) f.get("wait_p50_s"));
    assertThat(f.get("accounts").toString()).contains("vision", "hard_usd=100000.0");
    // The same seed, the same figures; on-demand only costs more.
    assertThat(WhatIfFigures.of(WhatIfRun.run(spot, WhatIfRun.partitions(spot, null), WhatIfRun.Cloud.BUNDLED, work(), START, 1, NO_PROGRESS), work(), Map.of(), List.of()).get("dollars_billed"))
        .isEqualTo(f.get("dollars_billed"));
    ServiceConfig.Cluster onDemand = ServiceConfig.read(config("od.yml", "      spot: on-demand\n"));
    Map<String, Object> g = WhatIfFigures.of(WhatIfRun.run(onDemand, WhatIfRun.partitions(onDemand, null), WhatIfRun.Cloud.BUNDLED, work(), START, 1, NO_PROGRESS), work(), Map.of(), List.of());
    assertThat((long) g.get("dollars_billed")).isGreaterThan((long) f.get("dollars_billed"));
  }

  /**
   * One engine: the configuration's QOS and account limits hold in the what-if as in the
   * controller's cycle. 12 jobs of one user, submitted 10 min apart and running 30 to 85 min, of 8
   * to 32 GPUs: unlimited, some overlap; with at most one running job per user (the QOS) they run
   * one after another (two users: two at once), and with the account's 16 GPUs (GrpTRES) never
   * more than 16 GPUs at once. Fails when the what-if makes up its own QOS and accounts instead of the configured ones.
   */
  @Test
  void theConfigurationsQosAndAccountLimitsHoldInTheReplay() throws Exception {
    List<ElasticSimulation.JobSpec> ann = work().stream().map(j -> j.withUser("ann")).toList();
    ServiceConfig.Cluster unlimited = ServiceConfig.read(config("free.yml", ""));
    ElasticSimulation.Result free = WhatIfRun.run(unlimited, WhatIfRun.partitions(unlimited, null),
        WhatIfRun.Cloud.BUNDLED, ann, START, 1, NO_PROGRESS);
    assertThat(free.jobsCompleted()).isEqualTo(12);
    assertThat(mostAtOnce(free, false)).isGreaterThan(1);
    assertThat(mostAtOnce(free, true)).isGreaterThan(16);

    ServiceConfig.Cluster oneEach = ServiceConfig.read(config("one.yml", """
          qos:
            normal:
              max-jobs-per-user: 1
        """));
    ElasticSimulation.Result serial = WhatIfRun.run(oneEach, WhatIfRun.partitions(oneEach, null),
        WhatIfRun.Cloud.BUNDLED, ann, START, 1, NO_PROGRESS);
    assertThat(serial.jobsCompleted()).isEqualTo(12);
    assertThat(mostAtOnce(serial, false)).isEqualTo(1);
    // Per user, as the trace names them: two users run a job each at once.
    List<ElasticSimulation.JobSpec> pair = new ArrayList<>();
    for (int i = 0; i < ann.size(); i++) {
      pair.add(ann.get(i).withUser(i % 2 == 0 ? "ann" : "bob"));
    }
    assertThat(mostAtOnce(WhatIfRun.run(oneEach, WhatIfRun.partitions(oneEach, null), WhatIfRun.Cloud.BUNDLED, pair,
        START, 1, NO_PROGRESS), false)).isEqualTo(2);

    Path capped = config("capped.yml", "");
    Files.writeString(capped, Files.readString(capped).replace(
        "hard-limit-usd: 100000", "hard-limit-usd: 100000\n      grp-tres: gres/gpu=16"));
    ServiceConfig.Cluster sixteen = ServiceConfig.read(capped);
    ElasticSimulation.Result held = WhatIfRun.run(sixteen, WhatIfRun.partitions(sixteen, null),
        WhatIfRun.Cloud.BUNDLED, ann, START, 1, NO_PROGRESS);
    // The 24- and 32-GPU jobs can never run under the account's 16: they wait, as in Slurm.
    assertThat(held.jobsCompleted()).isEqualTo(6);
    assertThat(held.outcomes().stream().filter(o -> o.gpus() > 16).map(ElasticSimulation.JobOutcome::pendingReason))
        .containsOnly("AssocGrpGRES").hasSize(6);
    assertThat(mostAtOnce(held, true)).isLessThanOrEqualTo(16);
  }

  /** The most jobs (or their GPUs) running at one moment of the run. */
  private static int mostAtOnce(ElasticSimulation.Result r, boolean gpus) {
    List<ElasticSimulation.JobOutcome> ran = r.outcomes().stream().filter(o -> o.firstStart() != null).toList();
    int most = 0;
    for (ElasticSimulation.JobOutcome at : ran) {
      int now = 0;
      for (ElasticSimulation.JobOutcome o : ran) {
        if (o.firstStart().compareTo(at.firstStart()) <= 0 && o.ended().compareTo(at.firstStart()) > 0) {
          now += gpus ? o.gpus() : 1;
        }
      }
      most = Math.max(most, now);
    }
    return most;
  }

  @Test
  void spotInterruptionsFollowTheAvailabilityTracesAndProgressIsToldEachSimulatedHour() throws Exception {
    ServiceConfig.Cluster spot = ServiceConfig.read(config("spot.yml", ""));
    List<Duration> told = new ArrayList<>();
    ElasticSimulation.Result calm = WhatIfRun.run(spot, WhatIfRun.partitions(spot, null), WhatIfRun.Cloud.BUNDLED, work(), START, 1,
        (simulated, submitted, ended) -> told.add(simulated));
    ElasticSimulation.Result stormy = WhatIfRun.run(spot, WhatIfRun.partitions(spot, null), new WhatIfRun.Cloud(null, 0.5, null), work(),
        START, 1, NO_PROGRESS);
    assertThat(calm.interruptions()).isZero();
    assertThat(stormy.interruptions()).isPositive();
    assertThat(stormy.jobsCompleted() + stormy.jobsHeld()).isEqualTo(12);
    assertThat(told).isNotEmpty().isSorted();
    assertThat(told.get(0)).isGreaterThanOrEqualTo(Duration.ofHours(1));
    assertThat(told.size()).isLessThanOrEqualTo((int) calm.makespan().toHours() + 1);
    // The cluster sampled at the same instants: spend only grows, never more nodes than the partition's.
    assertThat(calm.samples()).extracting(ElasticSimulation.Sample::at).isEqualTo(told);
    double spent = 0;
    for (ElasticSimulation.Sample x : calm.samples()) {
      assertThat(x.spotNodes() + x.onDemandNodes()).isBetween(0, 16);
      assertThat(x.runningGpus()).isBetween(0, 128);
      double now = x.spentUsd().getOrDefault("vision", 0.0);
      assertThat(now).isGreaterThanOrEqualTo(spent);
      spent = now;
    }
    assertThat(spent).isPositive();
    assertThatThrownBy(() -> WhatIfRun.traces(dir)).hasMessageEndingWith("no *.json availability trace in it");
  }

  /**
   * A laptop's configuration: the local provider's pretend cloud is simulated as the controller
   * would see it (its zones and prices, its boot delay, its no-capacity zones), and the
   * configured priority weights are the simulation's.
   */
  @Test
  void theLocalProvidersCloudIsSimulatedWithItsPricesBootDelayAndZones() throws Exception {
    Path f = dir.resolve("laptop.yml");
    Files.writeString(f, """
        squall:
          cluster-name: laptop
          priority:
            weight-age: 7
          local:
            zones: [zone-a, zone-b]
            no-capacity-zones: [zone-a]
            boot-delay: 90s
            on-demand-price: 10
            spot-price: 4
            launch-failure-rate: 0.2
          partitions:
            gpu:
              nodes: n-[1-4]
              elastic: true
        """);
    ServiceConfig.Cluster laptop = ServiceConfig.read(f);
    assertThat(laptop.provider()).isEqualTo("local");
    assertThat(laptop.scheduler().weights().age()).isEqualTo(7);
    List<ElasticSimulation.JobSpec> one = List.of(new ElasticSimulation.JobSpec(Duration.ZERO, 2, 8,
        Duration.ofHours(1)));
    ElasticSimulation.Result r = WhatIfRun.run(laptop, WhatIfRun.partitions(laptop, null), WhatIfRun.Cloud.BUNDLED, one, START, 1, NO_PROGRESS);
    ElasticSimulation.JobOutcome o = r.outcomes().get(0);
    assertThat(o.state()).hasToString("COMPLETED");
    // Spot first (the default policy), in the zone with capacity, running once its nodes have booted.
    assertThat(o.capacityTypes()).containsExactly(io.squall.core.provider.CapacityType.SPOT);
    assertThat(o.firstRun().minus(o.firstStart())).isGreaterThanOrEqualTo(Duration.ofSeconds(90));
    assertThat(o.usd()).isCloseTo(2 * 4.0 * (1 + o.firstRun().minus(o.firstStart()).toSeconds() / 3600.0),
        org.assertj.core.data.Offset.offset(0.5));
    assertThat(WhatIfRun.warnings(laptop)).singleElement().asString()
        .contains("squall.local.launch-failure-rate (0.2) is not simulated");
    assertThatThrownBy(() -> WhatIfRun.run(laptop, WhatIfRun.partitions(laptop, null), new WhatIfRun.Cloud(dir.resolve("prices.csv"), 0, null),
        one, START, 1, NO_PROGRESS)).hasMessageContaining("--prices: ").hasMessageContaining("squall.local.on-demand-price");
  }

  /**
   * A GCP configuration replays on the bundled GCP price history: a job running across
   * 2025-03-13, when a3-highgpu-8g spot in us-central1 fell from $35.40 to $20.42 an hour, pays
   * each price while it was in force, and so does its lower bound.
   */
  @Test
  void aGcpConfigurationIsPricedByTheBundledPriceHistoryOverTime() throws Exception {
    Path f = dir.resolve("gcp.yml");
    String yml = """
        squall:
          cluster-name: gcp
          provider: gcp
          gcp:
            project: p
            region: us-central1
            zones: [us-central1-a]
          partitions:
            gpu:
              nodes: a3-[1-4]
              elastic: true
              instance-types: [a3-highgpu-8g]
              spot: spot
        """;
    Files.writeString(f, yml);
    ServiceConfig.Cluster gcp = ServiceConfig.read(f);
    assertThat(gcp.zones()).containsExactly("us-central1-a");
    Instant noon = Instant.parse("2025-03-12T12:00:00Z");
    Instant midnight = Instant.parse("2025-03-13T00:00:00Z");
    List<ElasticSimulation.JobSpec> one = List.of(new ElasticSimulation.JobSpec(Duration.ZERO, 2, 8,
        Duration.ofHours(24)));
    ElasticSimulation.Result r = WhatIfRun.run(gcp, WhatIfRun.partitions(gcp, null), WhatIfRun.Cloud.BUNDLED, one, noon, 1, NO_PROGRESS);
    ElasticSimulation.JobOutcome o = r.outcomes().get(0);
    assertThat(o.state()).hasToString("COMPLETED");
    Instant ran = noon.plus(o.firstRun());
    double before = 35.3957496986301;
    double after = 20.4230336438356;
    double hoursBefore = Duration.between(ran, midnight).toMillis() / 3.6e6;
    assertThat(r.money().lowerBound()).isCloseTo(2 * (hoursBefore * before + (24 - hoursBefore) * after),
        org.assertj.core.data.Offset.offset(0.01));
    // Billed: the same, and the boot (at the price before) and SuspendTime idle (after) on top.
    double booted = Duration.between(noon.plus(o.firstStart()), ran).toMillis() / 3.6e6;
    assertThat(r.money().billed()).isGreaterThan(r.money().lowerBound() + 2 * booted * before - 0.01)
        .isLessThan(r.money().lowerBound() + 2 * booted * before + 2 * after * 0.5);
    // Without zones, a price per region cannot be placed.
    Path noZones = dir.resolve("nozones.yml");
    Files.writeString(noZones, yml.replace("    zones: [us-central1-a]\n", ""));
    ServiceConfig.Cluster zoneless = ServiceConfig.read(noZones);
    assertThatThrownBy(() -> WhatIfRun.run(zoneless, WhatIfRun.partitions(zoneless, null), WhatIfRun.Cloud.BUNDLED,
        one, noon, 1, NO_PROGRESS)).hasMessageContaining("is a price history, priced per region").hasMessageContaining(
        "squall.gcp.zones");
  }

  @Test
  void aConfigurationTheControllerWouldRefuseIsRefusedWithItsMessage() throws Exception {
    Path bad = config("bad.yml", "      max-on-demand-usd-per-gpu-hour: 5.0\n      spot: on-demand\n");
    assertThatThrownBy(() -> ServiceConfig.read(bad)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(
        "bad.yml: squall.partitions.gpu.max-on-demand-usd-per-gpu-hour: 5.0 is below the list price of every on-demand"
            + " offering");
    assertThatThrownBy(() -> ServiceConfig.read(dir.resolve("missing.yml"))).hasMessageEndingWith(
        "missing.yml: no such configuration file");
    Path broken = Files.writeString(dir.resolve("broken.yml"), "squall:\n  partitions: [unclosed\n");
    assertThatThrownBy(() -> ServiceConfig.read(broken)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(broken + ": ");
    ServiceConfig.Cluster ok = ServiceConfig.read(config("ok.yml", ""));
    assertThatThrownBy(() -> WhatIfRun.partitions(ok, "cpu")).hasMessageEndingWith("no partition cpu (partitions: [gpu])");
  }
}
