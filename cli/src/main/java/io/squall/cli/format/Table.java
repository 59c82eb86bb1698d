package io.squall.cli.format;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Rows of one kind printed through a {@link LineTemplate}: the template says where and how wide,
 * the columns say what each key means for a row. squeue, sinfo and sacct differ only in their
 * columns and default templates.
 *
 * @param <T> the row type
 */
public final class Table<T> {
  /** A column's header and how to read its value from a row (null prints as nothing). */
  public record Column<T>(String header, Function<T, String> value) {}

  private final LineTemplate template;
  private final Map<String, Column<T>> columns;

  /** @param columns by field key; every key in the template must have one */
  public Table(LineTemplate template, Map<String, Column<T>> columns) {
    for (LineTemplate.Field f : template.fields()) {
      if (!columns.containsKey(f.key())) {
        throw new IllegalArgumentException("no column for field " + f.key());
      }
    }
    this.template = template;
    this.columns = columns;
  }

  /**
   * The header (when asked for), an optional rule of dashes under it, then one line per row.
   * Fitted fields are first widened to their widest value or header.
   */
  public List<String> lines(List<T> rows, boolean header, boolean rule) {
    Table<T> settled = new Table<>(template.mapFields(f -> f.fit() ? f.withWidth(widest(f, rows)) : f), columns);
    List<String> lines = new ArrayList<>();
    if (header) {
      lines.add(settled.header());
      if (rule) {
        lines.add(settled.template.rule());
      }
    }
    for (T row : rows) {
      lines.add(settled.line(row));
    }
    return lines;
  }

  /**
   * Whether some field is fitted to its widest value, so that no line can be printed before every
   * row is known; otherwise {@link #line} renders each row on its own.
   */
  public boolean fitted() {
    return template.fields().stream().anyMatch(LineTemplate.Field::fit);
  }

  /** The header line. */
  public String header() {
    return template.renderHeader(f -> columns.get(f.key()).header());
  }

  /** One row's line, with the template's widths (fitted fields are not widened: see {@link #fitted}). */
  public String line(T row) {
    return template.render(f -> columns.get(f.key()).value().apply(row));
  }

  private int widest(LineTemplate.Field f, List<T> rows) {
    Column<T> column = columns.get(f.key());
    int width = Math.max(f.width(), column.header().length());
    for (T row : rows) {
      String v = column.value().apply(row);
      width = Math.max(width, v == null ? 0 : v.length());
    }
    return width;
  }
}
