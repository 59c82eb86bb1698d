package io.squall.simulate;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Prices over time from a price history in the format of the Google Cloud pricing calculator's
 * history ({@code snapshot_date,...,machine_type,...,region,hour_ondemand_usd,hour_spot_usd}, one
 * row per machine type, region and snapshot; the bundled {@link #BUNDLED_GCP}, see
 * {@code data/README.md}): each snapshot's prices are in force from its date (00:00 UTC) until the
 * next snapshot's. Prices are per region, so each row prices its machine type in every zone given.
 */
public final class PriceHistory {
  /** The bundled history: GCP a3 (8×H100) prices per region, weekly snapshots 2024-05 to 2026-07. */
  public static final String BUNDLED_GCP = "/data/gcp-a3-h100-prices.csv";

  private static final List<String> COLUMNS = List.of("snapshot_date", "machine_type", "region", "hour_ondemand_usd",
      "hour_spot_usd");

  private PriceHistory() {}

  /** Whether {@code text}'s header is a price history's (else it is read as a {@link Catalogue}). */
  public static boolean isHistory(String text) {
    int end = text.indexOf('\n');
    return List.of((end < 0 ? text : text.substring(0, end)).strip().split(",", -1)).contains("snapshot_date");
  }

  /**
   * The rows of {@code types} in {@code region}, as the prices of those types in {@code zones} on
   * demand, and as spot where a row has a spot price. Of two rows for the same snapshot, type and
   * region, the later one counts. A row that does not parse is refused naming {@code source}, its
   * line and field.
   */
  public static PriceSchedule parse(String text, String source, Set<String> types, String region, List<String> zones) {
    if (text.isBlank()) {
      throw new IllegalArgumentException(source + ": empty price history");
    }
    String[] lines = text.split("\r?\n");
    List<String> header = List.of(lines[0].strip().split(",", -1));
    for (String c : COLUMNS) {
      if (!header.contains(c)) {
        throw new IllegalArgumentException(source + ": no " + c + " column (a price history has "
            + String.join(",", COLUMNS) + ")");
      }
    }
    Map<String, Map<Instant, Double>> steps = new TreeMap<>();
    List<Offering> sold = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      int line = i + 1;
      String[] f = lines[i].split(",", -1);
      if (f.length != header.size()) {
        throw new IllegalArgumentException(source + " line " + line + ": " + f.length + " fields, the header has "
            + header.size());
      }
      String type = f[header.indexOf("machine_type")];
      if (!types.contains(type) || !f[header.indexOf("region")].equals(region)) {
        continue;
      }
      Instant from = date(f[header.indexOf("snapshot_date")], source, line);
      double onDemand = Catalogue.usd(f[header.indexOf("hour_ondemand_usd")], source, line, "hour_ondemand_usd");
      String spotText = f[header.indexOf("hour_spot_usd")];
      for (String zone : zones) {
        add(steps, sold, new Offering(type, zone, CapacityType.ON_DEMAND, onDemand, Availability.AVAILABLE), from);
        if (!spotText.isEmpty()) {
          add(steps, sold, new Offering(type, zone, CapacityType.SPOT,
              Catalogue.usd(spotText, source, line, "hour_spot_usd"), Availability.AVAILABLE), from);
        }
      }
    }
    return new PriceSchedule(sold, steps);
  }

  private static void add(Map<String, Map<Instant, Double>> steps, List<Offering> sold, Offering o, Instant from) {
    Map<Instant, Double> s = steps.computeIfAbsent(o.key(), k -> {
      sold.add(o);
      return new TreeMap<>();
    });
    s.put(from, o.pricePerHour());
  }

  private static Instant date(String text, String source, int line) {
    try {
      return LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant();
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(source + " line " + line + ", field snapshot_date: '" + text
          + "' is not a date (yyyy-MM-dd)");
    }
  }
}
