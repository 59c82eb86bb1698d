package io.squall.core.money;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The prices in force over time, per offering: what each price was, from when to when, with no
 * gap or overlap within an offering. Prices are learnt as they are seen (a provider's list, an
 * AWS spot price history entry), so cost can be computed for any period once its prices are
 * known. The service keeps the points in its database (they survive a restart); the simulator
 * in memory.
 *
 * <p>Not thread-safe: one thread observes (the fleet's), or callers lock.
 */
public final class PriceSeries {
  /** What one observation changed, for whoever stores the points: the point it ended, the one it began. */
  public record Change(PricePoint ended, PricePoint begun) {}

  private final Map<String, List<PricePoint>> byOffering = new TreeMap<>();

  /** Rebuilds a series from stored points (any order). */
  public static PriceSeries of(List<PricePoint> points) {
    PriceSeries s = new PriceSeries();
    for (PricePoint p : points) {
      s.byOffering.computeIfAbsent(p.offering(), k -> new ArrayList<>()).add(p);
    }
    s.byOffering.values().forEach(l -> l.sort((a, b) -> a.from().compareTo(b.from())));
    return s;
  }

  /**
   * The offering's price was {@code usdPerHour} at {@code at}. The same price as the one in
   * force changes nothing; another ends it at {@code at} and begins the new one. An observation
   * older than the price in force is ignored: prices are learnt forward.
   *
   * @return what changed; empty when nothing did
   */
  public Optional<Change> observe(String offering, double usdPerHour, Instant at) {
    List<PricePoint> points = byOffering.computeIfAbsent(offering, k -> new ArrayList<>());
    PricePoint current = points.isEmpty() ? null : points.get(points.size() - 1);
    if (current != null && (current.usdPerHour() == usdPerHour || !at.isAfter(current.from()))) {
      return Optional.empty();
    }
    PricePoint ended = null;
    if (current != null) {
      ended = current.endingAt(at);
      points.set(points.size() - 1, ended);
    }
    PricePoint begun = new PricePoint(offering, usdPerHour, at, null);
    points.add(begun);
    return Optional.of(new Change(ended, begun));
  }

  /** The price in force at {@code t}; empty when none was known then. */
  public Optional<PricePoint> at(String offering, Instant t) {
    for (PricePoint p : byOffering.getOrDefault(offering, List.of())) {
      if (p.covers(t)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** Whether any price of the offering is known. */
  public boolean knows(String offering) {
    return !byOffering.getOrDefault(offering, List.of()).isEmpty();
  }

  /** The offering's points overlapping [{@code from}, {@code to}), oldest first. */
  public List<PricePoint> between(String offering, Instant from, Instant to) {
    return byOffering.getOrDefault(offering, List.of()).stream()
        .filter(p -> p.from().isBefore(to) && (p.to() == null || p.to().isAfter(from))).toList();
  }

  /** Every offering's points, by offering then time. */
  public List<PricePoint> all() {
    return byOffering.values().stream().flatMap(List::stream).toList();
  }

  /**
   * What one node of the offering cost from {@code from} to {@code to}: each price in force
   * times the time it was. Time before the first known price is priced at that first price
   * (an instance is launched at a price the provider listed, which is recorded no later than
   * the launch), so that no billed second goes uncounted.
   *
   * @throws IllegalStateException when no price of the offering is known at all
   */
  public double dollars(String offering, Instant from, Instant to) {
    List<PricePoint> points = byOffering.getOrDefault(offering, List.of());
    if (points.isEmpty()) {
      throw new IllegalStateException("no price known for " + offering);
    }
    if (!to.isAfter(from)) {
      return 0;
    }
    double usd = 0;
    Instant first = points.get(0).from();
    if (from.isBefore(first)) {
      usd += hours(from, to.isBefore(first) ? to : first) * points.get(0).usdPerHour();
    }
    for (PricePoint p : points) {
      Instant start = p.from().isAfter(from) ? p.from() : from;
      Instant end = p.to() == null || p.to().isAfter(to) ? to : p.to();
      if (end.isAfter(start)) {
        usd += hours(start, end) * p.usdPerHour();
      }
    }
    return usd;
  }

  private static double hours(Instant from, Instant to) {
    return Duration.between(from, to).toMillis() / 3_600_000.0;
  }
}
