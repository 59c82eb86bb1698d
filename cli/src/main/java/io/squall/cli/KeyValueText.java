package io.squall.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * scontrol's record layout: {@code Key=Value} pairs, the first line flush left and the rest
 * indented three spaces, or everything on one line with {@code -o} (for grep and awk).
 */
final class KeyValueText {
  private final List<List<String>> lines = new ArrayList<>();

  /** Starts a new line. */
  KeyValueText line() {
    lines.add(new ArrayList<>());
    return this;
  }

  /** Adds a pair to the current line; null prints as Slurm's {@code (null)}. */
  KeyValueText put(String key, Object value) {
    if (lines.isEmpty()) {
      line();
    }
    lines.get(lines.size() - 1).add(key + "=" + (value == null ? "(null)" : value));
    return this;
  }

  /** Adds a line of its own with a deeper indent (scontrol's per-node allocation lines). */
  KeyValueText detail(String text) {
    lines.add(List.of("  " + text));
    return this;
  }

  String render(boolean oneLine) {
    StringBuilder sb = new StringBuilder();
    for (List<String> pairs : lines) {
      if (pairs.isEmpty()) {
        continue;
      }
      String text = String.join(" ", pairs);
      if (sb.length() > 0) {
        sb.append(oneLine ? " " : "\n   ");
      }
      sb.append(oneLine ? text.strip() : text);
    }
    return sb.toString();
  }
}
