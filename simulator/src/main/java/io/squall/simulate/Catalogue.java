package io.squall.simulate;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a simulated cloud sells: the offerings of a price list in SkyPilot's catalogue format
 * ({@code InstanceType,...,Price,SpotPrice,Region,AvailabilityZone}: on-demand price per hour,
 * and spot price per zone where it is sold). The bundled list ({@link #BUNDLED}, see
 * {@code data/README.md}) is an excerpt of SkyPilot's AWS catalogue for the p4d/p5 types.
 */
public final class Catalogue {
  /** The bundled price list, on the class path. */
  public static final String BUNDLED = "/data/aws-p4d-p5-prices.csv";

  private Catalogue() {}

  /** The bundled list's offerings of {@code types} in {@code region}. */
  public static List<Offering> bundled(Set<String> types, String region) {
    InputStream in = Catalogue.class.getResourceAsStream(BUNDLED);
    if (in == null) {
      throw new IllegalStateException(BUNDLED + " is missing from the class path");
    }
    try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      return read(r, BUNDLED, types, region);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A price list file's offerings of {@code types} in {@code region}. */
  public static List<Offering> of(Path file, Set<String> types, String region) {
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return read(r, file.toString(), types, region);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The rows of {@code types} in {@code region} as offerings: on-demand in each zone, and spot
   * where the row has a spot price. A row that does not parse is refused naming its line.
   */
  static List<Offering> read(Reader in, String source, Set<String> types, String region) throws IOException {
    BufferedReader r = new BufferedReader(in);
    String header = r.readLine();
    if (header == null) {
      throw new IllegalArgumentException(source + ": empty price list");
    }
    List<String> columns = List.of(header.split(",", -1));
    int type = column(columns, "InstanceType", source);
    int price = column(columns, "Price", source);
    int spot = column(columns, "SpotPrice", source);
    int regionAt = column(columns, "Region", source);
    int zone = column(columns, "AvailabilityZone", source);
    List<Offering> out = new ArrayList<>();
    int line = 1;
    for (String row = r.readLine(); row != null; row = r.readLine()) {
      line++;
      String[] f = row.split(",", -1);
      if (f.length != columns.size()) {
        throw new IllegalArgumentException(source + " line " + line + ": " + f.length + " fields, the header has "
            + columns.size());
      }
      if (!types.contains(f[type]) || !f[regionAt].equals(region)) {
        continue;
      }
      out.add(new Offering(f[type], f[zone], CapacityType.ON_DEMAND, usd(f[price], source, line, "Price"),
          Availability.AVAILABLE));
      if (!f[spot].isEmpty()) {
        out.add(new Offering(f[type], f[zone], CapacityType.SPOT, usd(f[spot], source, line, "SpotPrice"),
            Availability.AVAILABLE));
      }
    }
    return out;
  }

  private static int column(List<String> columns, String name, String source) {
    int i = columns.indexOf(name);
    if (i < 0) {
      throw new IllegalArgumentException(source + ": no " + name + " column (SkyPilot's catalogue format: "
          + "InstanceType,...,Price,SpotPrice,Region,AvailabilityZone)");
    }
    return i;
  }

  private static double usd(String text, String source, int line, String field) {
    try {
      double v = Double.parseDouble(text);
      if (v >= 0 && Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException(source + " line " + line + ", field " + field + ": '" + text
        + "' is not a price in US dollars per hour");
  }
}
