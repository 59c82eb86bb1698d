package io.squall.api.simulate;

import io.squall.api.config.ClusterLayout;
import io.squall.core.model.Partition;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import io.squall.core.provision.CapacityPolicy;
import io.squall.core.time.ManualClock;
import io.squall.providers.local.LocalProvider;
import io.squall.simulate.Accounting;
import io.squall.simulate.Catalogue;
import io.squall.simulate.ElasticSimulation;
import io.squall.simulate.PriceHistory;
import io.squall.simulate.PriceSchedule;
import io.squall.simulate.SimulatedCloud;
import io.squall.simulate.SimulatedProvider;
import io.squall.simulate.TraceReclaims;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * One configuration's what-if: its partitions (elastic ones with their capacity policies, static
 * ones up and unbilled), finance's rules (QOS, caps, deadlines) and budgets, as the controller
 * would build them from the same file, run by the production scheduler and fleet engine
 * ({@link ElasticSimulation}) on virtual time against a simulated cloud selling the price list's
 * offerings.
 *
 * <p>The cloud: the elastic partitions' instance types in the provider's region (the price list's
 * rows, fixed or over time), as the benchmarks' {@link SimulatedCloud} (boot, seeded spot capacity
 * and launch failures, on-demand unlimited); or the local provider's pretend cloud. With an
 * interruption rate, each spot zone follows a spot availability trace (the bundled "Can't Be Late" traces, or the files of a directory),
 * seeded choice and start, and a spot instance is taken back with a hazard that rises as its
 * zone's availability falls, scaled to that rate on average over the trace (as {@code squall bench
 * deadline}: not calibrated run by run), with a 2 min notice; the provider publishes that rate.
 */
public final class WhatIfRun {
  /** The hazard's floor where the trace says spot is plentiful, and the notice (as {@code bench interruptions}). */
  static final double BASELINE = 0.25;
  static final Duration NOTICE = Duration.ofMinutes(2);

  /**
   * The simulated cloud's inputs.
   *
   * @param prices a price list in SkyPilot's catalogue format; null for the bundled one
   * @param interruptionsPerHour spot interruptions per spot node-hour; 0 for none
   * @param availability a directory of availability traces ({@code *.json}); null for the bundled ones
   */
  public record Cloud(Path prices, double interruptionsPerHour, Path availability) {
    public static final Cloud BUNDLED = new Cloud(null, 0, null);

    public Cloud {
      if (interruptionsPerHour < 0 || !Double.isFinite(interruptionsPerHour)) {
        throw new IllegalArgumentException("--interruptions-per-hour: must be 0 or more, not " + interruptionsPerHour);
      }
    }
  }

  private WhatIfRun() {}

  /**
   * @param partitions the partitions to replay ({@link #partitions}), the default one first among
   *     equals: what a job without a partition asks for
   * @param start when the run starts (the trace's first submission: the prices in force, budget
   *     periods and availability traces run from it)
   * @param progress told each simulated hour how far the run has got
   */
  public static ElasticSimulation.Result run(ServiceConfig.Cluster cluster, List<Partition> partitions,
      Cloud cloudModel, List<ElasticSimulation.JobSpec> work, Instant start, long seed,
      ElasticSimulation.Progress progress) {
    Path prices = cloudModel.prices();
    ClusterLayout layout = cluster.layout();
    List<ElasticSimulation.PartitionSetup> parts = new ArrayList<>();
    Set<String> types = new TreeSet<>();
    for (Partition p : partitions) {
      CapacityPolicy policy = layout.policies().get(p.name());
      parts.add(new ElasticSimulation.PartitionSetup(p, p.nodes().stream().map(layout::node).toList(), policy));
      if (policy != null) {
        types.addAll(policy.instanceTypes());
      }
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    ManualClock clock = new ManualClock(start);
    SplittableRandom failures = rnd.split();
    Market market = market(cluster, prices, types, clock, rnd, failures);
    List<Offering> catalogue = market.catalogue();
    SimulatedProvider cloud = market.cloud();
    for (ElasticSimulation.PartitionSetup p : parts) {
      if (p.elastic() && catalogue.stream().noneMatch(o -> p.policy().instanceTypes().contains(o.instanceType()))) {
        throw new IllegalArgumentException(cluster.file() + ": partition " + p.partition().name() + " buys "
            + p.policy().instanceTypes() + " in " + cluster.region() + ", which " + market.seller() + " does not sell"
            + (cluster.local() != null ? "" : "; give --prices FILE (SkyPilot's catalogue format, or a price history)"));
      }
    }
    ElasticSimulation.Setup setup = new ElasticSimulation.Setup(cluster.name(), parts, cluster.scheduler(),
        Duration.ofMillis(250), cluster.schedulerInterval(), horizon(work), layout.purchaseRules(), layout.budgets(),
        new Accounting(layout.qos(), layout.defaultQos(), layout.accounts(), layout.users()));
    if (cloudModel.interruptionsPerHour() > 0) {
      List<String> spotZones = catalogue.stream().filter(o -> o.capacityType() == CapacityType.SPOT)
          .map(Offering::zone).distinct().toList();
      cloud.reclaims(TraceReclaims.assign(start, spotZones, traces(cloudModel.availability()),
          cloudModel.interruptionsPerHour(), BASELINE, NOTICE, rnd.nextLong()))
          .publishedInterruptionRate(cloudModel.interruptionsPerHour());
    }
    return new ElasticSimulation(setup, clock, cloud).run(work, progress);
  }

  /** What the simulated cloud sells, the cloud itself, and who sells it (for errors). */
  private record Market(List<Offering> catalogue, SimulatedProvider cloud, String seller) {}

  /**
   * The cloud of the configuration's provider selling {@code types}: the local provider's, or one
   * priced by {@code prices} (else the bundled list of the provider), spot capacities drawn from
   * {@code rnd} and launch failures from {@code failures}.
   */
  private static Market market(ServiceConfig.Cluster cluster, Path prices, Set<String> types, ManualClock clock,
      SplittableRandom rnd, SplittableRandom failures) {
    if (cluster.local() != null) {
      if (prices != null) {
        throw new IllegalArgumentException("--prices: " + cluster.file() + " uses the local provider, whose prices are "
            + "squall.local.on-demand-price and squall.local.spot-price");
      }
      List<Offering> catalogue = LocalProvider.offerings(cluster.local(), List.copyOf(types));
      return new Market(catalogue, localCloud(clock, catalogue, cluster.local(), failures),
          "the local provider (instance type " + LocalProvider.INSTANCE_TYPE + ")");
    }
    String source = prices != null ? prices.toString()
        : cluster.provider().equals("gcp") ? PriceHistory.BUNDLED_GCP : Catalogue.BUNDLED;
    PriceSchedule schedule = types.isEmpty() ? PriceSchedule.fixed(List.of())
        : schedule(cluster, types, source, priceList(prices, source));
    List<Offering> catalogue = schedule.offerings();
    return new Market(catalogue, SimulatedCloud.provider(clock, catalogue,
        SimulatedCloud.spotCapacities(catalogue, rnd), failures).prices(schedule), "the price list " + source);
  }

  /**
   * The local provider's cloud ({@code squall.local.*}) as the controller would see it: its
   * offerings, nodes ready after its boot delay (the agent's own start-up is not modelled), no
   * capacity in its no-capacity zones (listed as unavailable, where the real one fails the
   * launch: the fleet lands in the same zone, a tick's retry earlier), capacity unlimited
   * elsewhere. Its chaos setting, a share of launches failing, is not simulated ({@link
   * #warnings} says so).
   */
  static SimulatedProvider localCloud(ManualClock clock, List<Offering> catalogue, LocalProvider.Settings local,
      SplittableRandom failures) {
    SimulatedProvider cloud = new SimulatedProvider(clock, catalogue, failures).bootLatency(local.bootDelay());
    for (Offering o : catalogue) {
      if (local.noCapacityZones().contains(o.zone())) {
        cloud.capacity(o, 0);
      }
    }
    return cloud;
  }

  /** What of {@code cluster}'s configuration the simulation does not honour, one sentence each. */
  public static List<String> warnings(ServiceConfig.Cluster cluster) {
    List<String> out = new ArrayList<>();
    if (cluster.local() != null && cluster.local().launchFailureRate() > 0) {
      out.add(cluster.file() + ": squall.local.launch-failure-rate (" + cluster.local().launchFailureRate()
          + ") is not simulated: every launch the local cloud has room for succeeds");
    }
    return out;
  }

  /**
   * How long the run may go on: past the last submission, twice the longest runtime or 30 days,
   * whichever is more (a queue that long is a finding; the figures say when work was left).
   */
  static Duration horizon(List<ElasticSimulation.JobSpec> work) {
    Duration lastSubmit = Duration.ZERO;
    Duration longest = Duration.ZERO;
    for (ElasticSimulation.JobSpec j : work) {
      lastSubmit = j.submitAt().compareTo(lastSubmit) > 0 ? j.submitAt() : lastSubmit;
      longest = j.runtime().compareTo(longest) > 0 ? j.runtime() : longest;
    }
    Duration after = longest.multipliedBy(2).compareTo(Duration.ofDays(30)) > 0 ? longest.multipliedBy(2)
        : Duration.ofDays(30);
    return lastSubmit.plus(after);
  }

  /** The availability traces: every {@code *.json} of the directory, else the bundled ones. */
  static List<TraceReclaims.Trace> traces(Path dir) {
    List<TraceReclaims.Trace> out = new ArrayList<>();
    try {
      if (dir == null) {
        for (String name : TraceReclaims.BUNDLED) {
          try (InputStream in = TraceReclaims.class.getResourceAsStream("/data/spot/" + name + ".json")) {
            out.add(TraceReclaims.Trace.parse(name, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
          }
        }
        return out;
      }
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
          out.add(TraceReclaims.Trace.parse(f.getFileName().toString(), Files.readString(f, StandardCharsets.UTF_8)));
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("--availability " + dir + ": " + e.getMessage(), e);
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("--availability " + dir + ": no *.json availability trace in it");
    }
    return out;
  }

  /**
   * The elastic partitions' prices over time (their instance types'): a price history's rows for its types in the region, in the
   * provider's zones; or a SkyPilot catalogue's, fixed.
   */
  static PriceSchedule schedule(ServiceConfig.Cluster cluster, Set<String> types, String source, String text) {
    if (!PriceHistory.isHistory(text)) {
      return PriceSchedule.fixed(Catalogue.parse(text, source, types, cluster.region()));
    }
    if (cluster.zones().isEmpty()) {
      throw new IllegalArgumentException(source + " is a price history, priced per region: " + cluster.file()
          + " must name the zones the provider launches in (squall.gcp.zones, or squall.aws.subnets by zone)");
    }
    return PriceHistory.parse(text, source, types, cluster.region(), cluster.zones());
  }

  /** The price list's text: the file given, else the bundled one named {@code source}. */
  private static String priceList(Path prices, String source) {
    try {
      if (prices != null) {
        return Files.readString(prices, StandardCharsets.UTF_8);
      }
      try (InputStream in = Catalogue.class.getResourceAsStream(source)) {
        if (in == null) {
          throw new IllegalStateException(source + " is missing from the class path");
        }
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  /**
   * What is replayed: every partition of the configuration, or only the one named (the default
   * one then, so that every job runs there); refused naming what there is when it does not exist.
   */
  static List<Partition> partitions(ServiceConfig.Cluster cluster, String name) {
    List<Partition> all = cluster.layout().partitions();
    if (name == null) {
      return all;
    }
    return List.of(all.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow(() ->
        new IllegalArgumentException(cluster.file() + ": no partition " + name + " (partitions: "
            + all.stream().map(Partition::name).toList() + ")")).asDefault());
  }

}
