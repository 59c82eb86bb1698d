package io.squall.simulate;

import io.squall.core.provider.Availability;
import io.squall.core.provider.CapacityType;
import io.squall.core.provider.Offering;
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
  /** The bundled price list, on the class path (read by the caller: the simulator does no I/O). */
  public static final String BUNDLED = "/data/aws-p4d-p5-prices.csv";

  private Catalogue() {}

  /**
   * The rows of {@code types} in {@code region} of a price list's text as offerings: on-demand in
   * each zone, and spot where the row has a spot price. A row that does not parse is refused
   * naming {@code source} and its line.
   */
  public static List<Offering> parse(String text, String source, Set<String> types, String region) {
    String[] lines = text.split("\r?\n");
    if (text.isBlank()) {
      throw new IllegalArgumentException(source + ": empty price list");
    }
    List<String> columns = List.of(lines[0].split(",", -1));
    int type = column(columns, "InstanceType", source);
    int price = column(columns, "Price", source);
    int spot = column(columns, "SpotPrice", source);
    int regionAt = column(columns, "Region", source);
    int zone = column(columns, "AvailabilityZone", source);
    List<Offering> out = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      int line = i + 1;
      if (lines[i].isBlank()) {
        continue;
      }
      String[] f = lines[i].split(",", -1);
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

  static double usd(String text, String source, int line, String field) {
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
