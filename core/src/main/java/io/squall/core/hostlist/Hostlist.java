package io.squall.core.hostlist;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Expands and compresses Slurm hostlist expressions. */
public final class Hostlist {
  /** Slurm refuses ranges larger than this (MAX_RANGE in hostlist.c); so do we. */
  static final int MAX_RANGE = 64 * 1024;
  /** Host numbers are longs; 18 digits always fit one. */
  private static final int MAX_DIGITS = 18;

  private Hostlist() {}

  /**
   * Expands {@code gpu[001-003,7],cpu1} to {@code [gpu001, gpu002, gpu003, gpu7, cpu1]}.
   *
   * @throws HostlistException for a malformed expression or one naming more than
   *     {@link #MAX_RANGE} hosts
   */
  public static List<String> expand(String expression) {
    List<String> out = new ArrayList<>();
    for (String item : splitTopLevel(expression)) {
      if (item.isEmpty()) {
        throw new HostlistException("empty host name in '" + expression + "'");
      }
      expandItem(item, expression, out);
    }
    return out;
  }

  private static void checkTotal(long names, String whole) {
    if (names > MAX_RANGE) {
      throw new HostlistException("'" + whole + "' names more than " + MAX_RANGE + " hosts");
    }
  }

  private static List<String> splitTopLevel(String expression) {
    List<String> items = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < expression.length(); i++) {
      char c = expression.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        depth--;
        if (depth < 0) {
          throw new HostlistException("unbalanced ']' in '" + expression + "'");
        }
      } else if (c == ',' && depth == 0) {
        items.add(expression.substring(start, i).trim());
        start = i + 1;
      }
    }
    if (depth != 0) {
      throw new HostlistException("unbalanced '[' in '" + expression + "'");
    }
    items.add(expression.substring(start).trim());
    return items;
  }

  /** Expands one item, which may hold several bracket groups (rack[1-2]-node[1-4]). */
  private static void expandItem(String item, String whole, List<String> out) {
    int open = item.indexOf('[');
    if (open < 0) {
      checkName(item, whole);
      checkTotal(out.size() + 1L, whole);
      out.add(item);
      return;
    }
    int close = item.indexOf(']', open);
    String prefix = item.substring(0, open);
    String rest = item.substring(close + 1);
    List<String> tails = new ArrayList<>();
    if (rest.isEmpty()) {
      tails.add("");
    } else {
      expandItem(rest, whole, tails);
    }
    List<String> numbers = expandRanges(item.substring(open + 1, close), whole);
    checkTotal(out.size() + (long) numbers.size() * tails.size(), whole);
    for (String number : numbers) {
      for (String tail : tails) {
        out.add(prefix + number + tail);
      }
    }
  }

  private static List<String> expandRanges(String ranges, String whole) {
    List<String> numbers = new ArrayList<>();
    for (String range : ranges.split(",", -1)) {
      String[] ends = range.split("-", -1);
      if (ends.length > 2 || !isDigits(ends[0]) || (ends.length == 2 && !isDigits(ends[1]))) {
        throw new HostlistException("bad range '" + range + "' in '" + whole + "': expected N or N-M");
      }
      if (ends[0].length() > MAX_DIGITS || ends.length == 2 && ends[1].length() > MAX_DIGITS) {
        throw new HostlistException("range '" + range + "' in '" + whole + "': numbers have at most " + MAX_DIGITS
            + " digits");
      }
      if (ends.length == 1) {
        numbers.add(ends[0]);
        continue;
      }
      long lo = Long.parseLong(ends[0]);
      long hi = Long.parseLong(ends[1]);
      if (hi < lo) {
        throw new HostlistException("range '" + range + "' in '" + whole + "' goes backwards");
      }
      if (hi - lo >= MAX_RANGE) {
        throw new HostlistException("range '" + range + "' in '" + whole + "' is too large");
      }
      checkTotal(numbers.size() + hi - lo + 1, whole);
      int width = ends[0].length();
      for (long n = lo; n <= hi; n++) {
        numbers.add(pad(n, width));
      }
    }
    return numbers;
  }

  private static void checkName(String name, String whole) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isWhitespace(c) || c == ']' || c == '[') {
        throw new HostlistException("bad host name '" + name + "' in '" + whole + "'");
      }
    }
  }

  private static boolean isDigits(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (!Character.isDigit(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** {@code n} in decimal, zero-padded to at least {@code width} digits ({@code pad(7, 3)} is {@code 007}). */
  public static String pad(long n, int width) {
    String s = Long.toString(n);
    return s.length() >= width ? s : "0".repeat(width - s.length()) + s;
  }

  /**
   * Compresses names into Slurm's form: {@code gpu001,gpu002,gpu003,gpu007} becomes
   * {@code gpu[001-003,007]}. Duplicates are dropped; names are grouped by prefix and digit width.
   */
  public static String compress(List<String> names) {
    // prefix + width -> sorted numbers; names without a trailing number stand alone.
    Map<String, TreeMap<Long, Boolean>> runs = new TreeMap<>();
    Map<String, String> plain = new TreeMap<>();
    // Zero-padded widths seen per prefix: an unpadded number as wide as one of them (100 next to
    // 099) belongs to the same run, as in Slurm.
    Map<String, java.util.Set<Integer>> paddedWidths = new TreeMap<>();
    for (String name : names) {
      int digits = trailingDigitsStart(name);
      if (digits < name.length() && name.length() - digits > 1 && name.charAt(digits) == '0') {
        paddedWidths.computeIfAbsent(name.substring(0, digits), k -> new java.util.TreeSet<>()).add(name.length() - digits);
      }
    }
    for (String name : names) {
      int digits = trailingDigitsStart(name);
      if (digits == name.length() || name.length() - digits > 18) {
        plain.put(name, name);
        continue;
      }
      String prefix = name.substring(0, digits);
      String number = name.substring(digits);
      boolean padded = number.length() > 1 && number.charAt(0) == '0';
      int width = padded || paddedWidths.getOrDefault(prefix, java.util.Set.of()).contains(number.length())
          ? number.length() : 0;
      runs.computeIfAbsent(prefix + '\u0000' + width, k -> new TreeMap<>())
          .put(Long.parseLong(number), Boolean.TRUE);
    }
    TreeMap<String, String> pieces = new TreeMap<>(plain);
    for (Map.Entry<String, TreeMap<Long, Boolean>> e : runs.entrySet()) {
      String key = e.getKey();
      String prefix = key.substring(0, key.indexOf('\u0000'));
      int width = Integer.parseInt(key.substring(key.indexOf('\u0000') + 1));
      List<Long> numbers = new ArrayList<>(e.getValue().keySet());
      if (numbers.size() == 1) {
        pieces.put(prefix + pad(numbers.get(0), width) + '\u0000' + width, prefix + pad(numbers.get(0), width));
        continue;
      }
      pieces.put(prefix + '\u0000' + width, prefix + "[" + formatRuns(numbers, width) + "]");
    }
    return String.join(",", pieces.values());
  }

  private static int trailingDigitsStart(String name) {
    int digits = name.length();
    while (digits > 0 && Character.isDigit(name.charAt(digits - 1))) {
      digits--;
    }
    return digits;
  }

  /**
   * Sorted numbers as comma-separated runs, each end zero-padded to {@code width}: {@code 1,3,5-7},
   * or {@code 001-003,007} for width 3 (the inside of a hostlist bracket, or an array's task list).
   */
  public static String formatRuns(List<? extends Number> sorted, int width) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (i < sorted.size()) {
      int j = i;
      while (j + 1 < sorted.size() && sorted.get(j + 1).longValue() == sorted.get(j).longValue() + 1) {
        j++;
      }
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(pad(sorted.get(i).longValue(), width));
      if (j > i) {
        sb.append('-').append(pad(sorted.get(j).longValue(), width));
      }
      i = j + 1;
    }
    return sb.toString();
  }
}
