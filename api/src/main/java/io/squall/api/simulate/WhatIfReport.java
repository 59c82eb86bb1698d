package io.squall.api.simulate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The what-if report: one self-contained HTML file comparing configurations run on the same trace
 * (cost per account against its budget, queue and running GPUs, nodes by capacity type, the
 * distribution of waits, and the headline figures, a column per configuration).
 *
 * <p>Self-contained so that it can be mailed or archived and still open offline: the chart
 * library (ECharts, {@link ChartLibrary}), the page's script and style and the data are all
 * inlined, and the page's Content-Security-Policy forbids it to load anything. Names in it come
 * from users (accounts, configuration file names, the title): every one is escaped for where it
 * stands, HTML text here and JSON inside the data element, read by the script as text.
 */
public final class WhatIfReport {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Between nested figure names in the table ({@code accounts › vision › spent_usd}). */
  private static final String NESTED = " \u203a ";

  private WhatIfReport() {}

  /**
   * Writes the report to {@code out} (replacing it), the configurations in the order given.
   *
   * @throws IllegalStateException when the chart library is not on the class path (nothing is written)
   * @throws IllegalArgumentException when there is no run
   * @throws IOException when {@code out} cannot be written
   */
  public static void write(Path out, String title, List<ReportRun> runs) throws IOException {
    write(out, title, runs, WhatIfReport.class.getClassLoader());
  }

  /** As {@link #write(Path, String, List)}, with the chart library looked up through {@code loader}. */
  static void write(Path out, String title, List<ReportRun> runs, ClassLoader loader) throws IOException {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("a what-if report needs at least one configuration's run");
    }
    String chartLibrary = ChartLibrary.script(loader);
    Files.writeString(out, page(title, runs, chartLibrary), StandardCharsets.UTF_8);
  }

  static String page(String title, List<ReportRun> runs, String chartLibrary) {
    StringBuilder html = new StringBuilder(chartLibrary.length() + 64 * 1024);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        // Nothing may be fetched: what the page needs is in it, and a name that slipped through
        // escaping still could not pull a script in.
        .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; ")
        .append("script-src 'unsafe-inline'; style-src 'unsafe-inline'\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>").append(escape(title)).append("</title>\n")
        .append("<style>\n").append(resource("what-if-report.css")).append("</style>\n")
        .append("</head>\n<body>\n<header>\n<h1>").append(escape(title)).append("</h1>\n")
        .append("<p class=\"runs\">").append(runs.size() == 1 ? "One configuration" : runs.size() + " configurations")
        .append(" replayed on the same trace: ");
    for (int i = 0; i < runs.size(); i++) {
      html.append(i == 0 ? "" : ", ").append("<strong>").append(escape(runs.get(i).name())).append("</strong>");
    }
    html.append(".</p>\n</header>\n");
    html.append("<section>\n<h2>Headline figures</h2>\n");
    figures(html, runs);
    html.append("</section>\n");
    chartSection(html, "Cost per account, against its budget", "cost");
    chartSection(html, "Queue and running GPUs", "load");
    chartSection(html, "Nodes by capacity type", "nodes");
    chartSection(html, "Wait from submission to the first run", "waits");
    html.append("<script type=\"application/json\" id=\"what-if-data\">").append(json(WhatIfCharts.of(runs)))
        .append("</script>\n")
        .append("<noscript><p>The charts need JavaScript; the table above does not.</p></noscript>\n")
        .append("<script>\n").append(chartLibrary).append("\n</script>\n")
        .append("<script>\n").append(resource("what-if-report.js")).append("</script>\n")
        .append("</body>\n</html>\n");
    return html.toString();
  }

  /** A section the page's script fills with charts (the id is its name for them). */
  private static void chartSection(StringBuilder html, String heading, String id) {
    html.append("<section>\n<h2>").append(heading).append("</h2>\n<div class=\"charts\" id=\"").append(id)
        .append("\"></div>\n</section>\n");
  }

  /** The headline figures, a row per figure (nested ones flattened) and a column per configuration. */
  private static void figures(StringBuilder html, List<ReportRun> runs) {
    List<Map<String, Object>> columns = runs.stream().map(r -> flatten(r.figures())).toList();
    Map<String, Boolean> rows = new LinkedHashMap<>();
    columns.forEach(c -> c.keySet().forEach(k -> rows.put(k, true)));
    html.append("<table id=\"figures\">\n<thead><tr><th>figure</th>");
    for (ReportRun r : runs) {
      html.append("<th>").append(escape(r.name())).append("</th>");
    }
    html.append("</tr></thead>\n<tbody>\n");
    for (String row : rows.keySet()) {
      html.append("<tr><th>").append(escape(row)).append("</th>");
      for (Map<String, Object> c : columns) {
        if (c.containsKey(row)) {
          html.append("<td>").append(escape(cell(c.get(row)))).append("</td>");
        } else {
          html.append("<td class=\"none\">\u2013</td>");
        }
      }
      html.append("</tr>\n");
    }
    html.append("</tbody>\n</table>\n");
  }

  private static Map<String, Object> flatten(Map<?, ?> figures) {
    Map<String, Object> flat = new LinkedHashMap<>();
    figures.forEach((k, v) -> {
      if (v instanceof Map<?, ?> nested) {
        flatten(nested).forEach((nk, nv) -> flat.put(k + NESTED + nk, nv));
      } else {
        flat.put(String.valueOf(k), v);
      }
    });
    return flat;
  }

  /** A figure as a reader wants it: 100000 for 100000.0, 0.125 as it is, nothing for null. */
  static String cell(Object value) {
    if (value == null) {
      return "";
    }
    if (value instanceof Double d && Double.isFinite(d)) {
      return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }
    return String.valueOf(value);
  }

  /** Text for HTML content and quoted attribute values. */
  static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * The charts' data as JSON that can stand inside a script element: {@code <}, {@code >} and
   * {@code &} occur only in JSON strings, where their {@code \}{@code u} escapes mean the same, so
   * no name can close the element or open a comment.
   */
  static String json(WhatIfCharts.Page page) {
    try {
      return JSON.writeValueAsString(page).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026");
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the what-if report's data as JSON: " + e.getMessage(), e);
    }
  }

  private static String resource(String name) {
    try (InputStream in = WhatIfReport.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("squall-api is built without its resource " + name + ": rebuild it");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name + ": " + e.getMessage(), e);
    }
  }
}
