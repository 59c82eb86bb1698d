package io.squall.api.money;

import io.squall.api.store.HoldingRepository;
import io.squall.api.store.HoldingRow;
import io.squall.api.store.InstanceBillRepository;
import io.squall.api.store.InstanceBillRow;
import io.squall.api.store.InterruptionRepository;
import io.squall.api.store.InterruptionRow;
import io.squall.api.store.PriceRepository;
import io.squall.core.money.Charges;
import io.squall.core.money.CostSplit;
import io.squall.core.money.PriceSeries;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The controller's money over a period, from what it stored: the instances' bills, the jobs'
 * holds on nodes and the prices in force, added up by core's {@link Charges} as the simulator's
 * are. Nothing after now is billed: a period that ends in the future ends now.
 *
 * <p>Thread-safe: reads the database only.
 */
@Singleton
public final class Costs {
  private final InstanceBillRepository bills;
  private final HoldingRepository holdings;
  private final PriceRepository prices;
  private final InterruptionRepository interruptions;
  private final InstantSource clock;

  public Costs(InstanceBillRepository bills, HoldingRepository holdings, PriceRepository prices,
      InterruptionRepository interruptions, InstantSource clock) {
    this.bills = bills;
    this.holdings = holdings;
    this.prices = prices;
    this.interruptions = interruptions;
    this.clock = clock;
  }

  /**
   * A period's money.
   *
   * @param charges the instances' bills split among the jobs and overhead
   * @param partitionOfNode each billed node's partition, for its overhead
   * @param lostUsd by job: what the work interruptions destroyed cost (noticed in the period)
   */
  public record Period(Instant from, Instant to, Charges.Result charges, Map<String, String> partitionOfNode,
      Map<String, Double> lostUsd) {
    /** The overhead by partition. */
    public Map<String, Double> overheadByPartition() {
      Map<String, Double> out = new TreeMap<>();
      charges.overheadByNode().forEach((node, usd) -> out.merge(partitionOfNode.getOrDefault(node, ""), usd,
          Double::sum));
      return out;
    }
  }

  /** What was billed in [{@code from}, {@code until}), and who pays for it. */
  public Period between(Instant from, Instant until) {
    return periods(List.of(from, until)).get(0);
  }

  /**
   * The periods between consecutive cuts (days of a report, in order), from one reading of the
   * database: only the rows of the whole span, so that the cost of asking does not grow with history.
   */
  public List<Period> periods(List<Instant> cuts) {
    Instant now = clock.instant();
    List<Instant> ends = new ArrayList<>();
    for (int i = 0; i + 1 < cuts.size(); i++) {
      Instant to = cuts.get(i + 1).isAfter(now) ? now : cuts.get(i + 1);
      ends.add(to.isBefore(cuts.get(i)) ? cuts.get(i) : to);
    }
    if (ends.isEmpty()) {
      return List.of();
    }
    Instant first = cuts.get(0);
    Instant last = ends.get(ends.size() - 1);
    List<InstanceBillRow> spanBills = bills.findBillingBetween(first, last);
    List<HoldingRow> spanHoldings = holdings.findHeldBetween(first, last);
    List<InterruptionRow> spanInterruptions = interruptions.findNoticedBetween(first, last);
    PriceSeries series = prices.series();
    List<Period> out = new ArrayList<>();
    for (int i = 0; i < ends.size(); i++) {
      out.add(period(cuts.get(i), ends.get(i), spanBills, spanHoldings, spanInterruptions, series));
    }
    return out;
  }

  private static Period period(Instant from, Instant to, List<InstanceBillRow> allBills, List<HoldingRow> allHoldings,
      List<InterruptionRow> allInterruptions, PriceSeries series) {
    List<Charges.Billing> billed = new ArrayList<>();
    Map<String, InstanceBillRow> byId = new TreeMap<>();
    Map<String, String> partitionOfNode = new TreeMap<>();
    for (InstanceBillRow b : allBills) {
      byId.put(b.instanceId(), b);
      if (b.launched().isBefore(to) && (b.gone() == null || b.gone().isAfter(from))) {
        billed.add(b.billing());
        partitionOfNode.put(b.nodeName(), b.partitionName());
      }
    }
    Map<String, List<CostSplit.Holding>> held = new TreeMap<>();
    for (HoldingRow h : allHoldings) {
      if (h.heldFrom().isBefore(to) && (h.heldTo() == null || h.heldTo().isAfter(from))) {
        held.computeIfAbsent(h.nodeName(), k -> new ArrayList<>()).add(h.holding(to));
      }
    }
    Charges.Result charges = Charges.of(billed, held, series, from, to);
    Map<String, Double> lost = new TreeMap<>();
    for (InterruptionRow r : allInterruptions) {
      if (r.jobKey() == null || r.lostGpuSeconds() == null || r.noticedAt().isBefore(from)
          || !r.noticedAt().isBefore(to)) {
        continue;
      }
      Optional<InstanceBillRow> bill = Optional.ofNullable(r.instanceId()).map(byId::get)
          .or(() -> byId.values().stream().filter(b -> b.nodeName().equals(r.nodeName())
              && !b.launched().isAfter(r.noticedAt()) && (b.gone() == null || b.gone().isAfter(r.noticedAt())))
              .findFirst());
      bill.ifPresent(b -> lost.merge(r.jobKey(),
          Charges.lostWorkUsd(r.lostGpuSeconds(), b.offering(), b.gpus(), r.noticedAt(), series), Double::sum));
    }
    return new Period(from, to, charges, partitionOfNode, lost);
  }
}
