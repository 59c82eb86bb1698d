package io.squall.cli;

import java.util.Map;

/** Writes JSON text from maps, lists, strings, numbers, booleans and null (insertion order kept). */
final class Json {
  private Json() {}

  static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(value, sb, null);
    return sb.toString();
  }

  /** Indented two spaces a level, as Slurm's tools print {@code --json}. */
  static String pretty(Object value) {
    StringBuilder sb = new StringBuilder();
    write(value, sb, "");
    return sb.toString();
  }

  /** @param indent the current line's indent, or null for one line without spaces */
  private static void write(Object value, StringBuilder sb, String indent) {
    if (value == null) {
      sb.append("null");
    } else if (value instanceof String s) {
      string(s, sb);
    } else if (value instanceof Number || value instanceof Boolean) {
      sb.append(value);
    } else if (value instanceof Map<?, ?> map) {
      String inner = indent == null ? null : indent + "  ";
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        newline(sb, inner);
        string(String.valueOf(e.getKey()), sb);
        sb.append(indent == null ? ":" : ": ");
        write(e.getValue(), sb, inner);
      }
      if (!first) {
        newline(sb, indent);
      }
      sb.append('}');
    } else if (value instanceof Iterable<?> list) {
      String inner = indent == null ? null : indent + "  ";
      sb.append('[');
      boolean first = true;
      for (Object item : list) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        newline(sb, inner);
        write(item, sb, inner);
      }
      if (!first) {
        newline(sb, indent);
      }
      sb.append(']');
    } else {
      string(value.toString(), sb);
    }
  }

  private static void newline(StringBuilder sb, String indent) {
    if (indent != null) {
      sb.append('\n').append(indent);
    }
  }

  private static void string(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
