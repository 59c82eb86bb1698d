package io.squall.simulate;

import io.squall.core.provider.Instance;
import io.squall.core.spot.Interruption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Spot reclaims driven by recorded spot availability: each zone follows one availability trace,
 * and a spot instance is taken back at a hazard that is high while its zone's trace shows
 * capacity short and nil while it shows all of it.
 *
 * <p>The model, exactly. A trace is a series {@code a(0..n-1)} of instances available, one value
 * per {@code gap} (600 s in the 2022 AWS traces); it repeats after its end. Zone {@code z} follows
 * trace {@code T} from tick {@code o} on: at virtual time {@code t} it is at tick
 * {@code k(t) = (o + floor((t - start) / gap)) mod n}. With {@code M} the trace's largest value,
 * the shortage at tick {@code k} is {@code s(k) = M - a(k)} and its weight
 * {@code w(k) = b + (1 - b) * s(k) / mean(s)}, where {@code b} (the baseline, 0 to 1) is the share
 * of the hazard that does not follow the trace; {@code w} averages 1 over the trace (a trace that
 * never falls below {@code M} has {@code w = 1} throughout, as has a zone without a trace). A spot
 * instance in zone {@code z} is taken back at hazard {@code h(t) = rate * w(k(t))} per hour from
 * its launch: the mean hazard over the trace is {@code rate} per node-hour, whichever trace a zone
 * follows; while the trace shows full availability it is {@code b * rate}, and a drop raises it
 * (for these binary traces, to {@code (b + (1 - b) / u) * rate} with {@code u} the share of ticks
 * where the probe found no instance). Each instance
 * draws {@code E ~ Exp(1)} from its node's own random stream (seeded by the seed and the node's
 * name, so the k-th instance of a node draws the same {@code E} in any run with the same seed)
 * and gets its notice when {@code ∫ h dt} from its launch reaches {@code E}; the machine goes
 * {@code notice} later. Which trace and start tick each zone follows is drawn with the seed
 * ({@link #assign}).
 *
 * <p>Deterministic: the same seed, traces, zones and launches (per node, in order) give the same
 * notices. Not thread-safe (the provider calls it under its lock).
 */
public final class TraceReclaims implements SpotReclaims {
  /**
   * The bundled "Can't Be Late" availability traces (see {@code data/README.md}), by name; each is
   * on the class path at {@code /data/spot/NAME.json} (read by the caller: the simulator does no I/O).
   */
  public static final List<String> BUNDLED = List.of("us-west-2a_k80_1", "us-west-2a_k80_8", "us-west-2a_v100_1",
      "us-west-2a_v100_8", "us-west-2b_k80_1", "us-west-2b_k80_8", "us-west-2b_v100_1", "us-west-2b_v100_8");

  /** No notice later than this after a launch: past it an instance is never taken back. */
  static final Duration HORIZON = Duration.ofDays(3650);

  /**
   * One availability series.
   *
   * @param name where it came from (a file name), for the setup's description
   * @param available instances available at each tick, each >= 0
   * @param gap the time between two ticks
   */
  public record Trace(String name, List<Integer> available, Duration gap) {
    public Trace {
      Objects.requireNonNull(name, "name");
      available = List.copyOf(available);
      if (available.isEmpty() || available.stream().anyMatch(a -> a < 0)) {
        throw new IllegalArgumentException("trace " + name + " needs at least one tick and no negative counts");
      }
      if (gap.isNegative() || gap.isZero()) {
        throw new IllegalArgumentException("trace " + name + " needs a positive gap between ticks");
      }
    }

    /**
     * A trace from its file's text, the "Can't Be Late" format:
     * {@code {"metadata":{"gap_seconds":N},"data":[instances available at each tick]}}. Read by
     * hand (the format is this small) so that the simulator needs no JSON library; anything else
     * is refused naming {@code name}.
     */
    public static Trace parse(String name, String json) {
      Matcher gap = GAP.matcher(json);
      Matcher data = DATA.matcher(json);
      if (!gap.find() || !data.find()) {
        throw new IllegalArgumentException(name + ": not a spot availability trace "
            + "({\"metadata\":{\"gap_seconds\":N},\"data\":[...]})");
      }
      List<Integer> available = new ArrayList<>();
      for (String v : data.group(1).split(",")) {
        String t = v.strip();
        if (t.isEmpty()) {
          continue;
        }
        try {
          available.add(Integer.parseInt(t));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(name + ": tick " + (available.size() + 1) + " is '" + t
              + "', not a whole number of instances");
        }
      }
      return new Trace(name, available, Duration.ofSeconds(Long.parseLong(gap.group(1))));
    }
  }

  private static final Pattern GAP = Pattern.compile("\"gap_seconds\"\\s*:\\s*(\\d+)");
  private static final Pattern DATA = Pattern.compile("\"data\"\\s*:\\s*\\[([^\\]]*)\\]");

  /** Zone {@code zone} follows {@code trace} from tick {@code offset} at the start of the run. */
  public record Assignment(String zone, Trace trace, int offset) {
    public Assignment {
      Objects.requireNonNull(zone, "zone");
      Objects.requireNonNull(trace, "trace");
      if (offset < 0 || offset >= trace.available().size()) {
        throw new IllegalArgumentException("offset " + offset + " is outside trace " + trace.name());
      }
    }
  }

  /** A zone's trace as weights per tick. */
  private record Weights(double[] w, long gapMs, int offset) {}

  private final Instant start;
  private final double ratePerHour;
  private final Duration noticeLength;
  private final long nodeSeed;
  private final List<Assignment> assignments;
  private final Map<String, Weights> weights = new TreeMap<>();
  private final Map<String, SplittableRandom> byNode = new TreeMap<>();

  /**
   * @param start the run's start: every zone is at its assignment's offset then
   * @param ratePerHour the mean hazard per spot node-hour, >= 0 (0: never)
   * @param baseline the share of the hazard, 0 to 1, that does not follow the traces
   * @param notice how long before the machine goes its notice comes (2 min on AWS)
   * @param seed the seed of every instance's draw
   */
  public TraceReclaims(Instant start, List<Assignment> assignments, double ratePerHour, double baseline,
      Duration notice, long seed) {
    this.start = Objects.requireNonNull(start, "start");
    if (!(ratePerHour >= 0) || Double.isInfinite(ratePerHour)) {
      throw new IllegalArgumentException("the reclaim rate must be a finite number >= 0, not " + ratePerHour);
    }
    if (!(baseline >= 0 && baseline <= 1)) {
      throw new IllegalArgumentException("the baseline share must be 0 to 1, not " + baseline);
    }
    if (notice.isNegative()) {
      throw new IllegalArgumentException("the notice must not be negative");
    }
    this.ratePerHour = ratePerHour;
    this.noticeLength = notice;
    this.nodeSeed = new SplittableRandom(seed).nextLong();
    List<Assignment> sorted = new ArrayList<>(assignments);
    sorted.sort(Comparator.comparing(Assignment::zone));
    this.assignments = List.copyOf(sorted);
    for (Assignment a : this.assignments) {
      if (weights.put(a.zone(), weights(a, baseline)) != null) {
        throw new IllegalArgumentException("zone " + a.zone() + " follows two traces");
      }
    }
  }

  /**
   * Each zone (in name order) follows a trace drawn with the seed, without repeats while there
   * are traces left (a seeded shuffle of the traces in name order, then round again), from a
   * start tick drawn with the seed.
   */
  public static TraceReclaims assign(Instant start, List<String> zones, List<Trace> traces, double ratePerHour,
      double baseline, Duration notice, long seed) {
    if (traces.isEmpty() && !zones.isEmpty()) {
      throw new IllegalArgumentException("no trace for the zones to follow");
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Trace> shuffled = new ArrayList<>(traces);
    shuffled.sort(Comparator.comparing(Trace::name));
    for (int i = shuffled.size() - 1; i > 0; i--) {
      int j = rnd.nextInt(i + 1);
      Trace t = shuffled.get(i);
      shuffled.set(i, shuffled.get(j));
      shuffled.set(j, t);
    }
    List<String> sortedZones = zones.stream().distinct().sorted().toList();
    List<Assignment> out = new ArrayList<>();
    for (int i = 0; i < sortedZones.size(); i++) {
      Trace t = shuffled.get(i % shuffled.size());
      out.add(new Assignment(sortedZones.get(i), t, rnd.nextInt(t.available().size())));
    }
    return new TraceReclaims(start, out, ratePerHour, baseline, notice, rnd.nextLong());
  }

  public List<Assignment> assignments() {
    return assignments;
  }


  /** The hazard, per hour, of a spot instance in {@code zone} at {@code at}. */
  public double hazardPerHour(String zone, Instant at) {
    Weights z = weights.get(zone);
    if (z == null) {
      return ratePerHour;
    }
    long tick = Math.floorDiv(Duration.between(start, at).toMillis(), z.gapMs());
    return ratePerHour * z.w()[(int) Math.floorMod(z.offset() + tick, (long) z.w().length)];
  }

  /** Each zone's trace and start tick, e.g. {@code use1-az1=us-west-2a_v100_8@1234}, in zone order. */
  public String describe() {
    List<String> parts = new ArrayList<>();
    for (Assignment a : assignments) {
      parts.add(a.zone() + "=" + a.trace().name() + "@" + a.offset());
    }
    return String.join(", ", parts);
  }

  @Override
  public Interruption notice(Instance instance, Instant launchedAt) {
    SplittableRandom rnd = byNode.computeIfAbsent(instance.nodeName(),
        n -> new SplittableRandom(nodeSeed ^ (0x9E3779B97F4A7C15L * (n.hashCode() + 1L))));
    double budget = -Math.log(1 - rnd.nextDouble()); // Exp(1): [0, 1) never gives log(0)
    if (ratePerHour == 0) {
      return null;
    }
    String zone = instance.offering().zone();
    Instant at = noticeAt(weights.get(zone), launchedAt, budget / ratePerHour);
    if (at == null || at.isAfter(launchedAt.plus(HORIZON))) {
      return null;
    }
    String detail = String.format(Locale.ROOT, "simulated spot reclaim in %s (hazard %.3f/h)", zone,
        hazardPerHour(zone, at));
    return new Interruption(instance.nodeName(), instance.id(), Interruption.Source.AWS_METADATA,
        Interruption.Kind.TERMINATION, at, at.plus(noticeLength), detail);
  }

  /**
   * The instant at which the weight integrated from {@code from} (in hours) reaches
   * {@code weightedHours}; null past the horizon.
   */
  private Instant noticeAt(Weights z, Instant from, double weightedHours) {
    if (z == null) {
      return from.plusMillis(Math.round(Math.min(weightedHours, HORIZON.toHours() + 1.0) * 3_600_000));
    }
    long gap = z.gapMs();
    int n = z.w().length;
    long cursor = Duration.between(start, from).toMillis();
    long tick = Math.floorDiv(cursor, gap);
    double need = weightedHours;
    double periodHours = n * (gap / 3_600_000.0); // the weight over a whole period, since it averages 1
    boolean skipped = false;
    while (true) {
      if (!skipped && cursor == tick * gap && need > periodHours) {
        // Whole periods of the trace add up to periodHours each: jump over them.
        long periods = (long) Math.floor(need / periodHours);
        if (periods * periodHours > HORIZON.toHours() + periodHours) {
          return null;
        }
        cursor += periods * n * gap;
        tick += periods * n;
        need -= periods * periodHours;
        skipped = true;
      }
      double w = z.w()[(int) Math.floorMod(z.offset() + tick, (long) n)];
      long end = (tick + 1) * gap;
      double segment = w * ((end - cursor) / 3_600_000.0);
      if (segment >= need && w > 0) {
        return start.plusMillis(cursor + (long) Math.ceil(need / w * 3_600_000));
      }
      need -= segment;
      cursor = end;
      tick++;
      if (Duration.ofMillis(cursor).minus(Duration.between(start, from)).compareTo(HORIZON) > 0) {
        return null;
      }
    }
  }

  private static Weights weights(Assignment a, double baseline) {
    List<Integer> available = a.trace().available();
    int max = available.stream().mapToInt(Integer::intValue).max().orElseThrow();
    double total = 0;
    for (int v : available) {
      total += max - v;
    }
    double[] w = new double[available.size()];
    for (int i = 0; i < w.length; i++) {
      w[i] = total == 0 ? 1 : baseline + (1 - baseline) * (max - available.get(i)) * w.length / total;
    }
    return new Weights(w, a.trace().gap().toMillis(), a.offset());
  }
}
