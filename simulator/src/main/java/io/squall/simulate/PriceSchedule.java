package io.squall.simulate;

import io.squall.core.provider.Offering;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a simulated cloud charges over time: per offering ({@link Offering#key()}), each price in
 * force from its instant until the next one. Before an offering's first price, that first price
 * holds (a history says nothing earlier, and a run may start before it); after its last, the last.
 * A price list without history is a schedule with one price per offering ({@link #fixed}).
 */
public final class PriceSchedule {
  private final List<Offering> offerings;
  private final Map<String, NavigableMap<Instant, Double>> byKey = new TreeMap<>();
  /** Every instant at which some offering's price is set, for the loop to look up at each step. */
  private final NavigableSet<Instant> changes = new TreeSet<>();

  /**
   * @param offerings what is sold (their prices are not read: {@code steps} says)
   * @param steps per offering key, its prices from each instant; every offering must have one
   */
  public PriceSchedule(List<Offering> offerings, Map<String, ? extends Map<Instant, Double>> steps) {
    this.offerings = List.copyOf(offerings);
    for (Offering o : offerings) {
      Map<Instant, Double> s = steps.get(o.key());
      if (s == null || s.isEmpty()) {
        throw new IllegalArgumentException("no price for " + o.key());
      }
      byKey.put(o.key(), new TreeMap<>(s));
      changes.addAll(s.keySet());
    }
  }

  /** The catalogue's prices, for ever. */
  public static PriceSchedule fixed(List<Offering> catalogue) {
    Map<String, Map<Instant, Double>> steps = new TreeMap<>();
    for (Offering o : catalogue) {
      steps.put(o.key(), Map.of(Instant.EPOCH, o.pricePerHour()));
    }
    return new PriceSchedule(catalogue, steps);
  }

  /** What is sold, each offering at its first price. */
  public List<Offering> offerings() {
    List<Offering> out = new ArrayList<>();
    for (Offering o : offerings) {
      out.add(new Offering(o.instanceType(), o.zone(), o.capacityType(), byKey.get(o.key()).firstEntry().getValue(),
          o.availability()));
    }
    return out;
  }

  /** US dollars per hour of the offering at {@code at}. */
  public double at(String key, Instant at) {
    NavigableMap<Instant, Double> s = steps(key);
    Map.Entry<Instant, Double> e = s.floorEntry(at);
    return (e != null ? e : s.firstEntry()).getValue();
  }

  /** Since when the price in force at {@code at} has been (at the latest {@code at} itself). */
  public Instant since(String key, Instant at) {
    Instant from = steps(key).floorKey(at);
    return from == null ? at : from;
  }

  /** The first instant after {@code after} at which a price changes; null when none does. */
  public Instant nextChange(Instant after) {
    return changes.higher(after);
  }

  /** The last instant at or before {@code at} at which a price changed; null when none did. */
  public Instant lastChange(Instant at) {
    return changes.floor(at);
  }

  /** What one instance of the offering costs from {@code from} to {@code to}, in US dollars. */
  public double dollars(String key, Instant from, Instant to) {
    return integral(List.of(key), from, to);
  }

  /**
   * What the cheapest of {@code keys} costs from {@code from} to {@code to}, the cheapest taken
   * at each instant, in US dollars; 0 for no key.
   */
  public double cheapestDollars(Collection<String> keys, Instant from, Instant to) {
    return keys.isEmpty() ? 0 : integral(keys, from, to);
  }

  private double integral(Collection<String> keys, Instant from, Instant to) {
    if (!to.isAfter(from)) {
      return 0;
    }
    TreeSet<Instant> cuts = new TreeSet<>(List.of(from, to));
    for (String k : keys) {
      cuts.addAll(steps(k).subMap(from, false, to, false).keySet());
    }
    double usd = 0;
    Instant a = null;
    for (Instant b : cuts) {
      if (a != null) {
        double cheapest = Double.POSITIVE_INFINITY;
        for (String k : keys) {
          cheapest = Math.min(cheapest, at(k, a));
        }
        usd += Duration.between(a, b).toMillis() / 1000.0 / 3600 * cheapest; // per second, to the millisecond
      }
      a = b;
    }
    return usd;
  }

  private NavigableMap<Instant, Double> steps(String key) {
    NavigableMap<Instant, Double> s = byKey.get(key);
    if (s == null) {
      throw new IllegalArgumentException(key + " is not sold");
    }
    return s;
  }
}
