package io.squall.core.money;

import io.squall.core.provider.CapacityType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Spend as the dashboard's money view draws it: an account's cumulative spend from the start of
 * its budget period (a burn-down against the budget), and what was paid by capacity type with what
 * spot saved. The money itself comes from {@link Charges}, as every other figure of money does;
 * this only cuts the period and adds up.
 */
public final class SpendOverTime {
  /** The most points one line may have, to keep an answer small whatever a caller asks. */
  public static final int MAX_POINTS = 500;

  private SpendOverTime() {}

  /** @param usd spent from the period's start until {@code at} */
  public record Point(Instant at, double usd) {}

  /**
   * {@code points} + 1 instants from {@code start} to {@code now}, evenly spaced (whole
   * milliseconds; the last is {@code now} exactly); just the two ends when {@code now} is not after
   * {@code start} by at least a millisecond per point.
   *
   * @throws IllegalArgumentException when {@code points} is not within 1 and {@link #MAX_POINTS}
   */
  public static List<Instant> cuts(Instant start, Instant now, int points) {
    if (points < 1 || points > MAX_POINTS) {
      throw new IllegalArgumentException("points must be within 1 and " + MAX_POINTS + ", not " + points);
    }
    long span = Duration.between(start, now).toMillis();
    List<Instant> out = new ArrayList<>();
    out.add(start);
    if (span >= points) {
      for (int i = 1; i < points; i++) {
        out.add(start.plusMillis(span * i / points));
      }
    }
    out.add(now.isAfter(start) ? now : start);
    return out;
  }

  /**
   * An account's running total: at each cut after the first, what the accounts it stands for spent
   * since the first.
   *
   * @param cuts as {@link #cuts} gives them
   * @param spendByPeriod for each period between consecutive cuts, what each account's own jobs
   *     cost in it
   * @param countsFor the accounts whose spend is this line's: for a budget, the account and its
   *     sub-accounts ({@link Budgets#budgetsOf}); otherwise the account alone
   */
  public static List<Point> cumulative(List<Instant> cuts, List<Map<String, Double>> spendByPeriod,
      Predicate<String> countsFor) {
    if (spendByPeriod.size() != cuts.size() - 1) {
      throw new IllegalArgumentException(cuts.size() + " cuts make " + (cuts.size() - 1) + " periods, not "
          + spendByPeriod.size());
    }
    List<Point> out = new ArrayList<>();
    double total = 0;
    out.add(new Point(cuts.get(0), 0));
    for (int i = 0; i < spendByPeriod.size(); i++) {
      for (Map.Entry<String, Double> e : spendByPeriod.get(i).entrySet()) {
        if (countsFor.test(e.getKey())) {
          total += e.getValue();
        }
      }
      out.add(new Point(cuts.get(i + 1), total));
    }
    return out;
  }

  /**
   * What some jobs paid, by capacity type, and what the same node-time would have cost on demand.
   *
   * @param onDemandUsd NaN when an on-demand price of one of their instance types is unknown
   */
  public record ByCapacityType(Map<CapacityType, Double> usd, double totalUsd, double onDemandUsd) {
    public ByCapacityType {
      Map<CapacityType, Double> copy = new EnumMap<>(CapacityType.class);
      copy.putAll(usd);
      usd = Collections.unmodifiableMap(copy);
    }

    /** What buying spot saved against on demand (NaN when {@link #onDemandUsd} is). */
    public double savingsUsd() {
      return onDemandUsd - totalUsd;
    }

    public static ByCapacityType of(Collection<Charges.JobCharge> charges) {
      Map<CapacityType, Double> usd = new EnumMap<>(CapacityType.class);
      for (CapacityType t : CapacityType.values()) {
        usd.put(t, 0.0);
      }
      double total = 0;
      double onDemand = 0;
      for (Charges.JobCharge c : charges) {
        c.usdByCapacityType().forEach((t, v) -> usd.merge(t, v, Double::sum));
        total += c.usd();
        onDemand += c.onDemandUsd();
      }
      return new ByCapacityType(usd, total, onDemand);
    }
  }
}
