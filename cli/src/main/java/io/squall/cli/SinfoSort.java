package io.squall.cli;

import io.squall.cli.format.Table.Column;
import java.util.Comparator;
import java.util.Map;

/**
 * sinfo's {@code -S/--sort}: format letters separated by commas, each ascending or, after a
 * {@code -}, descending ({@code +} is ascending too): {@code -S "-P,N"}. Lines compare by what
 * they print in that field, numbers as numbers. Without it lines keep sinfo's order (partitions as
 * configured, nodes as the service lists them).
 */
final class SinfoSort {
  private SinfoSort() {}

  /**
   * @return the order, or null when {@code spec} is null or blank
   * @throws UsageException for a letter that is not a field
   */
  static Comparator<SinfoRow> parse(String spec, Map<String, Column<SinfoRow>> columns) {
    if (spec == null || spec.isBlank()) {
      return null;
    }
    Comparator<SinfoRow> order = null;
    for (String part : spec.split(",")) {
      String key = part.strip();
      boolean descending = key.startsWith("-");
      if (descending || key.startsWith("+")) {
        key = key.substring(1);
      }
      Column<SinfoRow> column = columns.get(key);
      if (column == null) {
        throw new UsageException("Invalid sort specification: " + part.strip());
      }
      Comparator<SinfoRow> by = (a, b) -> compare(column.value().apply(a), column.value().apply(b));
      if (descending) {
        by = by.reversed();
      }
      order = order == null ? by : order.thenComparing(by);
    }
    return order;
  }

  private static int compare(String a, String b) {
    try {
      return Long.compare(Long.parseLong(a), Long.parseLong(b));
    } catch (NumberFormatException e) {
      return a.compareTo(b);
    }
  }
}
