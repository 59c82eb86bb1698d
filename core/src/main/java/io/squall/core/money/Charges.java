package io.squall.core.money;

import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the instances billed over a period, and who pays for it: each instance's bill split
 * ({@link CostSplit}) among the jobs that held its node, the rest overhead of the node. The
 * controller's accounting, its chargeback report and the simulator all add money up here, so a
 * simulated figure and the service's are computed the same way.
 *
 * <p>Beside what a job paid it gives what the same node-time would have cost on demand (the
 * on-demand price in force for the same type, in the same zone when that is listed), which is
 * what spot saved.
 */
public final class Charges {
  private Charges() {}

  /**
   * One instance's billing: from its launch to when it was gone (null while it runs).
   *
   * @param gpus the GPUs of its node, for GPU-hours
   */
  public record Billing(String instanceId, String node, Offering offering, int gpus, Instant launched, Instant gone) {
    public Billing {
      Objects.requireNonNull(node, "node");
      Objects.requireNonNull(offering, "offering");
      Objects.requireNonNull(launched, "launched");
    }
  }

  /**
   * What one job was charged in the period.
   *
   * @param usd its share of its nodes' bills
   * @param onDemandUsd the same node-time at the on-demand price in force; NaN when no on-demand
   *     price of one of its instance types is known
   * @param gpuHours its GPU-hours on billed instances (its share × the node's GPUs × hours held)
   * @param capacityTypes what its instances were bought as
   * @param instanceTypes its instances' types
   * @param usdByCapacityType {@code usd} split by what the instances it was paid for were bought
   *     as (a job moved from spot to on demand pays some of each)
   */
  public record JobCharge(double usd, double onDemandUsd, double gpuHours, Set<CapacityType> capacityTypes,
      Set<String> instanceTypes, Map<CapacityType, Double> usdByCapacityType) {
    public JobCharge {
      capacityTypes = Set.copyOf(capacityTypes);
      instanceTypes = Set.copyOf(instanceTypes);
      Map<CapacityType, Double> by = new EnumMap<>(CapacityType.class);
      by.putAll(usdByCapacityType);
      usdByCapacityType = Collections.unmodifiableMap(by);
    }

    JobCharge plus(JobCharge o) {
      Set<CapacityType> c = new TreeSet<>(capacityTypes);
      c.addAll(o.capacityTypes);
      Set<String> t = new TreeSet<>(instanceTypes);
      t.addAll(o.instanceTypes);
      Map<CapacityType, Double> by = new EnumMap<>(CapacityType.class);
      by.putAll(usdByCapacityType);
      o.usdByCapacityType.forEach((k, v) -> by.merge(k, v, Double::sum));
      return new JobCharge(usd + o.usd, onDemandUsd + o.onDemandUsd, gpuHours + o.gpuHours, c, t, by);
    }
  }

  /**
   * The period's money: {@code billed} = the jobs' dollars + the overhead.
   *
   * @param jobs by job key, in key order (as {@code overheadByNode} by node): the sums over them
   *     come out the same, to the last bit, run after run
   * @param overheadByNode billed time and GPUs no job held, by node
   * @param onDemandJobsUsd the part of the jobs' dollars paid for on-demand instances
   */
  public record Result(Map<String, JobCharge> jobs, Map<String, Double> overheadByNode, double billed,
      double onDemandJobsUsd) {
    public Result {
      jobs = Collections.unmodifiableMap(new TreeMap<>(jobs));
      overheadByNode = Collections.unmodifiableMap(new TreeMap<>(overheadByNode));
    }

    public double jobsUsd() {
      return jobs.values().stream().mapToDouble(JobCharge::usd).sum();
    }

    public double overhead() {
      return overheadByNode.values().stream().mapToDouble(Double::doubleValue).sum();
    }
  }

  /**
   * Splits what the instances billed in [{@code from}, {@code to}).
   *
   * @param holdings the jobs' holds by node (a hold still open ends at {@code to}); a node's
   *     holds may span several of its instances: each gets the part within its life
   * @param prices the prices in force; an offering with no price known is priced at the price
   *     its instance was launched at
   */
  public static Result of(List<Billing> instances, Map<String, List<CostSplit.Holding>> holdings, PriceSeries prices,
      Instant from, Instant to) {
    Map<String, JobCharge> jobs = new TreeMap<>();
    Map<String, Double> overhead = new TreeMap<>();
    double billed = 0;
    double onDemandJobs = 0;
    for (Billing b : instances) {
      Instant start = b.launched().isAfter(from) ? b.launched() : from;
      Instant end = b.gone() == null || b.gone().isAfter(to) ? to : b.gone();
      if (!end.isAfter(start)) {
        continue;
      }
      List<CostSplit.Holding> holds = holdings.getOrDefault(b.node(), List.of());
      String key = b.offering().key();
      PriceSeries priced = known(prices, key, b.offering().pricePerHour(), b.launched());
      CostSplit.Split split = CostSplit.of(key, start, end, holds, priced);
      CostSplit.Split onDemand = b.offering().capacityType() == CapacityType.ON_DEMAND ? split
          : onDemandOffering(prices, b.offering()).map(k -> CostSplit.of(k, start, end, holds, prices)).orElse(null);
      // GPU-hours: the same split at a price of one dollar per GPU-hour.
      PriceSeries perGpuHour = new PriceSeries();
      perGpuHour.observe(key, b.gpus(), Instant.EPOCH);
      CostSplit.Split gpuHours = CostSplit.of(key, start, end, holds, perGpuHour);
      billed += split.billed();
      overhead.merge(b.node(), split.overhead(), Double::sum);
      for (Map.Entry<String, Double> e : split.jobs().entrySet()) {
        double od = onDemand == null ? Double.NaN : onDemand.jobs().getOrDefault(e.getKey(), 0.0);
        JobCharge c = new JobCharge(e.getValue(), od, gpuHours.jobs().getOrDefault(e.getKey(), 0.0),
            Set.of(b.offering().capacityType()), Set.of(b.offering().instanceType()),
            Map.of(b.offering().capacityType(), e.getValue()));
        jobs.merge(e.getKey(), c, JobCharge::plus);
        if (b.offering().capacityType() == CapacityType.ON_DEMAND) {
          onDemandJobs += e.getValue();
        }
      }
    }
    return new Result(jobs, overhead, billed, onDemandJobs);
  }

  /**
   * What {@code lostGpuSeconds} of work cost on a node of the offering at {@code at}: the price
   * in force per GPU-second (the launch price when none is known).
   */
  public static double lostWorkUsd(double lostGpuSeconds, Offering offering, int gpus, Instant at, PriceSeries prices) {
    if (gpus <= 0) {
      return 0;
    }
    double perHour = prices.at(offering.key(), at).map(PricePoint::usdPerHour).orElse(offering.pricePerHour());
    return lostGpuSeconds / 3600 * perHour / gpus;
  }

  /** The series, or a copy that knows the launch price of an offering it has never seen. */
  private static PriceSeries known(PriceSeries prices, String key, double launchPrice, Instant launched) {
    if (prices.knows(key)) {
      return prices;
    }
    List<PricePoint> points = new ArrayList<>(prices.all());
    points.add(new PricePoint(key, launchPrice, launched, null));
    return PriceSeries.of(points);
  }

  /** The on-demand offering of a spot one's type: in the same zone when its price is known, else in any zone. */
  private static Optional<String> onDemandOffering(PriceSeries prices, Offering o) {
    Offering same = new Offering(o.instanceType(), o.zone(), CapacityType.ON_DEMAND, 0, o.availability());
    if (prices.knows(same.key())) {
      return Optional.of(same.key());
    }
    String suffix = "/" + CapacityType.ON_DEMAND;
    return prices.all().stream().map(PricePoint::offering)
        .filter(k -> k.startsWith(o.instanceType() + "/") && k.endsWith(suffix)).findFirst();
  }
}
