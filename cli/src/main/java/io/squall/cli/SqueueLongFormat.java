package io.squall.cli;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * squeue's {@code -O}/{@code --Format} (and {@code SQUEUE_FORMAT2}): a comma-separated list of
 * {@code type[:[.][size][suffix]]}, each field 20 characters wide unless sized, left-justified
 * unless {@code .}, with no separator but the suffix. Each type is one of {@code -o}'s letters
 * under a name (squeue's print functions are shared), so it is turned into an {@code -o} format.
 */
final class SqueueLongFormat {
  private static final int DEFAULT_WIDTH = 20;

  /** The {@code -O} types Squall's jobs have, by lower-case name, with the {@code -o} letter they print. */
  private static final Map<String, Character> TYPES = new LinkedHashMap<>();

  static {
    TYPES.put("account", 'a');
    TYPES.put("arrayjobid", 'F');
    TYPES.put("arraytaskid", 'K');
    TYPES.put("endtime", 'e');
    TYPES.put("gres", 'b');
    TYPES.put("tres-per-node", 'b');
    TYPES.put("jobarrayid", 'i');
    TYPES.put("jobid", 'A');
    TYPES.put("name", 'j');
    TYPES.put("nodelist", 'N');
    TYPES.put("numcpus", 'C');
    TYPES.put("numnodes", 'D');
    TYPES.put("partition", 'P');
    TYPES.put("qos", 'q');
    TYPES.put("reservation", 'v');
    TYPES.put("reason", 'r');
    TYPES.put("reasonlist", 'R');
    TYPES.put("starttime", 'S');
    TYPES.put("state", 'T');
    TYPES.put("statecompact", 't');
    TYPES.put("submittime", 'V');
    TYPES.put("timelimit", 'l');
    TYPES.put("timeused", 'M');
    TYPES.put("username", 'u');
    TYPES.put("workdir", 'Z');
  }

  private SqueueLongFormat() {}

  /**
   * The {@code -o} format that prints what {@code spec} asks for.
   *
   * @throws UsageException naming a type squeue does not know or Squall cannot print
   */
  static String toPercentFormat(String spec) {
    StringBuilder format = new StringBuilder();
    for (String field : spec.split(",")) {
      if (field.isBlank()) {
        continue;
      }
      int colon = field.indexOf(':');
      String type = (colon < 0 ? field : field.substring(0, colon)).strip().toLowerCase(Locale.ROOT);
      Character letter = TYPES.get(type);
      if (letter == null) {
        throw new UsageException("Invalid job format specification: " + field.strip()
            + " (types: " + String.join(",", TYPES.keySet()) + ")");
      }
      String size = colon < 0 ? "" : field.substring(colon + 1);
      boolean right = size.startsWith(".");
      int digits = right ? 1 : 0;
      int end = digits;
      while (end < size.length() && Character.isDigit(size.charAt(end))) {
        end++;
      }
      String width = end > digits ? size.substring(digits, end) : Integer.toString(DEFAULT_WIDTH);
      format.append('%').append(right ? "." : "").append(width).append(letter)
          .append(size.substring(end).replace("%", "%%"));
    }
    if (format.length() == 0) {
      throw new UsageException("Invalid job format specification: no fields in \"" + spec + "\"");
    }
    return format.toString();
  }
}
