package io.squall.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GNU getopt_long as Slurm's tools use it: {@code -u bob}, {@code -ubob}, grouped flags
 * {@code -hl}, {@code --user=bob}, {@code --user bob}, unambiguous prefixes ({@code --noh}),
 * operands anywhere (GNU permutes them) and {@code --} ending the options.
 */
final class Getopt {
  /**
   * @param shortName the letter, or {@code '\0'} for a long-only option
   * @param longName the name options are stored under
   */
  record Option(char shortName, String longName, boolean takesValue) {
    static Option flag(char shortName, String longName) {
      return new Option(shortName, longName, false);
    }

    static Option value(char shortName, String longName) {
      return new Option(shortName, longName, true);
    }
  }

  /** What was given: values by long name (a flag has one empty value per use), and operands. */
  record Parsed(Map<String, List<String>> values, List<String> operands) {
    boolean has(String longName) {
      return values.containsKey(longName);
    }

    /** The last value given (later options win, as in Slurm), or null. */
    String last(String longName) {
      List<String> v = values.get(longName);
      return v == null ? null : v.get(v.size() - 1);
    }

    /** Every value given, each split at commas: {@code -u a,b -u c} gives a, b, c. */
    List<String> list(String longName) {
      List<String> out = new ArrayList<>();
      for (String v : values.getOrDefault(longName, List.of())) {
        for (String part : v.split(",")) {
          if (!part.isBlank() && !out.contains(part.strip())) {
            out.add(part.strip());
          }
        }
      }
      return out;
    }
  }

  private final List<Option> options;

  Getopt(List<Option> options) {
    this.options = List.copyOf(options);
  }

  Parsed parse(List<String> args) {
    Map<String, List<String>> values = new LinkedHashMap<>();
    List<String> operands = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a.equals("--")) {
        operands.addAll(args.subList(i + 1, args.size()));
        break;
      }
      if (a.startsWith("--")) {
        int eq = a.indexOf('=');
        String name = eq < 0 ? a.substring(2) : a.substring(2, eq);
        Option o = byLong(name, a);
        String value;
        if (!o.takesValue()) {
          if (eq >= 0) {
            throw new UsageException("option '--" + o.longName() + "' doesn't allow an argument", true);
          }
          value = "";
        } else if (eq >= 0) {
          value = a.substring(eq + 1);
        } else if (i + 1 < args.size()) {
          value = args.get(++i);
        } else {
          throw new UsageException("option '--" + o.longName() + "' requires an argument", true);
        }
        values.computeIfAbsent(o.longName(), k -> new ArrayList<>()).add(value);
      } else if (a.startsWith("-") && a.length() > 1) {
        for (int k = 1; k < a.length(); k++) {
          Option o = byShort(a.charAt(k));
          if (!o.takesValue()) {
            values.computeIfAbsent(o.longName(), x -> new ArrayList<>()).add("");
            continue;
          }
          String value;
          if (k + 1 < a.length()) {
            value = a.substring(k + 1);
          } else if (i + 1 < args.size()) {
            value = args.get(++i);
          } else {
            throw new UsageException("option requires an argument -- '" + a.charAt(k) + "'", true);
          }
          values.computeIfAbsent(o.longName(), x -> new ArrayList<>()).add(value);
          break;
        }
      } else {
        operands.add(a);
      }
    }
    return new Parsed(values, operands);
  }

  private Option byShort(char c) {
    for (Option o : options) {
      if (o.shortName() == c && c != '\0') {
        return o;
      }
    }
    throw new UsageException("invalid option -- '" + c + "'", true);
  }

  private Option byLong(String name, String word) {
    List<Option> prefixed = new ArrayList<>();
    for (Option o : options) {
      if (o.longName().equals(name)) {
        return o;
      }
      if (!name.isEmpty() && o.longName().startsWith(name)) {
        prefixed.add(o);
      }
    }
    if (prefixed.size() == 1) {
      return prefixed.get(0);
    }
    if (prefixed.isEmpty()) {
      throw new UsageException("unrecognized option '" + word + "'", true);
    }
    List<String> names = new ArrayList<>();
    prefixed.forEach(o -> names.add("--" + o.longName()));
    throw new UsageException("option '" + word + "' is ambiguous; possibilities: " + String.join(" ", names), true);
  }
}
