package io.squall.cli;

import io.squall.cli.format.Table.Column;
import java.math.BigInteger;
import java.util.Comparator;
import java.util.Map;

/**
 * {@code -S/--sort} of sinfo and squeue: format letters separated by commas, each ascending or,
 * after a {@code -}, descending ({@code +} is ascending too): {@code -S "-P,N"}. Lines compare by
 * what they print in that field; values that start with a number compare by it first, so job
 * {@code 100} comes after {@code 42} and {@code 42_[4-9]}.
 */
final class FieldSort {
  private FieldSort() {}

  /**
   * @return the order, or null when {@code spec} is null or blank
   * @throws UsageException for a letter that is not a field
   */
  static <T> Comparator<T> parse(String spec, Map<String, Column<T>> columns) {
    if (spec == null || spec.isBlank()) {
      return null;
    }
    Comparator<T> order = null;
    for (String part : spec.split(",")) {
      String key = part.strip();
      boolean descending = key.startsWith("-");
      if (descending || key.startsWith("+")) {
        key = key.substring(1);
      }
      Column<T> column = columns.get(key);
      if (column == null) {
        throw new UsageException("Invalid sort specification: " + part.strip());
      }
      Comparator<T> by = (a, b) -> compare(column.value().apply(a), column.value().apply(b));
      if (descending) {
        by = by.reversed();
      }
      order = order == null ? by : order.thenComparing(by);
    }
    return order;
  }

  static int compare(String a, String b) {
    String x = a == null ? "" : a;
    String y = b == null ? "" : b;
    int i = digits(x);
    int j = digits(y);
    if (i > 0 && j > 0) {
      int byNumber = new BigInteger(x.substring(0, i)).compareTo(new BigInteger(y.substring(0, j)));
      if (byNumber != 0) {
        return byNumber;
      }
      return x.substring(i).compareTo(y.substring(j));
    }
    return x.compareTo(y);
  }

  /** How many digits {@code s} starts with. */
  private static int digits(String s) {
    int n = 0;
    while (n < s.length() && Character.isDigit(s.charAt(n))) {
      n++;
    }
    return n;
  }
}
