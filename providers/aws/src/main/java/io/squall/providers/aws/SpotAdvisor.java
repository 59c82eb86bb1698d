package io.squall.providers.aws;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The AWS Spot Instance Advisor's interruption bucket per region and instance type, read from a
 * snapshot in its CSV form, and the interruption rate each bucket stands for
 * ({@link InterruptionBucket#perNodeHour()}). The bundled snapshot ({@link #bundled()}) is the
 * resource {@value #RESOURCE} beside this class, with its source and licence in the README there.
 *
 * <p>Only {@code Linux} rows are read: Squall buys Linux/UNIX spot, and other systems' pools are
 * interrupted differently. A region or instance type the snapshot does not list has no bucket and
 * rate 0, which means unknown, not safe: the fleet then goes by the interruptions it observes.
 *
 * <p>Immutable, so thread safe.
 */
public final class SpotAdvisor {
  /** The bundled snapshot, a class path resource beside this class. */
  public static final String RESOURCE = "spot-advisor-gpu.csv";

  private static final String OS = "Linux";
  private static final String REGION = "region";
  private static final String OS_COLUMN = "os";
  private static final String TYPE = "instance_type";
  private static final String INDEX = "interruption_bucket_index";
  private static final String LABEL = "interruption_bucket_label";

  /** Region, then instance type, to bucket. */
  private final Map<String, Map<String, InterruptionBucket>> buckets;

  private SpotAdvisor(Map<String, Map<String, InterruptionBucket>> buckets) {
    this.buckets = buckets;
  }

  /**
   * The snapshot bundled with this module.
   *
   * @throws IllegalArgumentException if a line of it is malformed (naming the line)
   * @throws IllegalStateException if this module's jar lacks it
   * @throws UncheckedIOException if it cannot be read
   */
  public static SpotAdvisor bundled() {
    InputStream in = SpotAdvisor.class.getResourceAsStream(RESOURCE);
    if (in == null) {
      throw new IllegalStateException("the Spot Instance Advisor snapshot " + RESOURCE
          + " is missing from the class path beside " + SpotAdvisor.class.getName());
    }
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      return parse(RESOURCE, r.lines().toList());
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + RESOURCE, e);
    }
  }

  /**
   * Reads an advisor snapshot: a header line naming at least the columns {@code region},
   * {@code os}, {@code instance_type}, {@code interruption_bucket_index} and
   * {@code interruption_bucket_label} (in any order), then one row per region, system and type.
   * Blank lines are skipped.
   *
   * @param source what the lines are, for error messages (a file name)
   * @throws IllegalArgumentException naming {@code source} and the line (counted from 1) when a
   *     column is missing, a row has another number of fields than the header, a field is empty, a
   *     label is not one of the advisor's, its index disagrees with it, or a Linux row repeats a
   *     region and type
   */
  static SpotAdvisor parse(String source, List<String> lines) {
    if (lines.isEmpty() || lines.get(0).isBlank()) {
      throw new IllegalArgumentException(source + " line 1: no header; expected the advisor's columns ("
          + String.join(",", List.of(REGION, OS_COLUMN, TYPE, INDEX, LABEL)) + ", ...)");
    }
    List<String> header = List.of(lines.get(0).split(",", -1));
    int region = column(source, header, REGION);
    int os = column(source, header, OS_COLUMN);
    int type = column(source, header, TYPE);
    int index = column(source, header, INDEX);
    int label = column(source, header, LABEL);
    Map<String, Map<String, InterruptionBucket>> buckets = new TreeMap<>();
    for (int i = 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      int number = i + 1;
      String[] f = line.split(",", -1);
      if (f.length != header.size()) {
        throw malformed(source, number, line, "expected " + header.size() + " fields, as in the header, found "
            + f.length);
      }
      for (int c : new int[] {region, os, type, index, label}) {
        if (f[c].isBlank()) {
          throw malformed(source, number, line, "column " + header.get(c) + " is empty");
        }
      }
      InterruptionBucket bucket = InterruptionBucket.labelled(f[label]).orElseThrow(() -> malformed(source, number,
          line, "interruption bucket '" + f[label] + "' is none of the advisor's (<5%, 5-10%, 10-15%, 15-20%, >20%)"));
      if (!f[index].equals(Integer.toString(bucket.index()))) {
        throw malformed(source, number, line, "interruption bucket index " + f[index] + " does not match its label "
            + bucket.label() + " (index " + bucket.index() + ")");
      }
      if (!f[os].equals(OS)) {
        continue;
      }
      InterruptionBucket before = buckets.computeIfAbsent(f[region], r -> new TreeMap<>()).putIfAbsent(f[type], bucket);
      if (before != null) {
        throw malformed(source, number, line, "a second " + OS + " row for " + f[type] + " in " + f[region]);
      }
    }
    buckets.replaceAll((r, byType) -> Map.copyOf(byType));
    return new SpotAdvisor(Map.copyOf(buckets));
  }

  /** The advisor's bucket for {@code instanceType} in {@code region}; empty when the snapshot does not list it. */
  public Optional<InterruptionBucket> bucket(String region, String instanceType) {
    return Optional.ofNullable(buckets.getOrDefault(region, Map.of()).get(instanceType));
  }

  /**
   * Interruptions per node-hour of spot {@code instanceType} in {@code region}, from its bucket
   * ({@link InterruptionBucket#perNodeHour()}); 0 when the snapshot does not list it, meaning
   * unknown: the fleet then goes by what it observes alone.
   */
  public double interruptionsPerNodeHour(String region, String instanceType) {
    return bucket(region, instanceType).map(InterruptionBucket::perNodeHour).orElse(0.0);
  }

  private static int column(String source, List<String> header, String name) {
    int at = header.indexOf(name);
    if (at < 0) {
      throw new IllegalArgumentException(source + " line 1: the header has no column " + name + ": " + header);
    }
    return at;
  }

  private static IllegalArgumentException malformed(String source, int number, String line, String what) {
    return new IllegalArgumentException(source + " line " + number + ": " + what + ": " + line);
  }
}
