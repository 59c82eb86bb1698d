package io.squall.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code squall report cost}: the chargeback report. The service adds the money up
 * ({@code GET /v1/reports/cost}); this prints it as a table, CSV or JSON.
 */
final class ReportCommand extends ServiceCommand {
  private static final List<String> COLUMNS = List.of("jobs", "gpu_hours", "cost_usd", "on_demand_usd",
      "savings_usd", "savings_pct", "lost_usd");
  private static final List<String> HEADERS = List.of("JOBS", "GPU-HOURS", "COST-USD", "ON-DEMAND-USD",
      "SAVINGS-USD", "SAVINGS-%", "LOST-USD");

  ReportCommand(Invocation io) {
    super("report", io);
  }

  @Override
  List<Getopt.Option> options() {
    return List.of(
        Getopt.Option.value('S', "since"),
        Getopt.Option.value('E', "until"),
        Getopt.Option.value('A', "account"),
        Getopt.Option.value('\0', "by"),
        Getopt.Option.value('\0', "format"));
  }

  @Override
  String usage() {
    return """
        Usage: squall report cost [--since TIME] [--until TIME] [--account A] [--by user|account|partition|day]
                                  [--format table|csv|json]
          What jobs cost in [since, until) (default: this month so far), grouped (default: by account),
          with what the same node-time costs on demand and so what spot saved. An account includes its
          sub-accounts. Operators also see the overhead (billed time no job held) by partition.
          TIME: YYYY-MM-DD[THH:MM[:SS]], MM/DD[/YY], HH:MM[:SS], now-2days, today ...""";
  }

  @Override
  int execute(Getopt.Parsed args) {
    if (args.operands().size() != 1 || !args.operands().get(0).equals("cost")) {
      throw new UsageException(args.operands().isEmpty() ? "which report? (squall report cost)"
          : "unknown report '" + args.operands().get(0) + "' (reports: cost)");
    }
    String format = args.has("format") ? args.last("format").toLowerCase(Locale.ROOT) : "table";
    if (!List.of("table", "csv", "json").contains(format)) {
      throw new UsageException("--format=" + args.last("format") + ": expected table, csv or json");
    }
    Instant now = io.clock().instant();
    Map<String, String> query = new LinkedHashMap<>();
    if (args.has("since")) {
      query.put("since", SacctTime.parse(args.last("since"), now, io.zone()).toString());
    }
    if (args.has("until")) {
      query.put("until", SacctTime.parse(args.last("until"), now, io.zone()).toString());
    }
    if (args.has("account")) {
      query.put("account", args.last("account"));
    }
    if (args.has("by")) {
      query.put("by", args.last("by"));
    }
    JsonNode report = client().costReport(query);
    switch (format) {
      case "json" -> print(List.of(json(report)));
      case "csv" -> print(csv(report));
      default -> print(table(report));
    }
    return 0;
  }

  private static String json(JsonNode report) {
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A header, a line per group, then the total. */
  private static List<String> csv(JsonNode report) {
    String by = report.path("by").asText();
    List<String> out = new ArrayList<>();
    out.add(by + "," + String.join(",", COLUMNS));
    for (JsonNode row : report.path("rows")) {
      out.add(csvCell(row.path(by).asText()) + "," + values(row, ","));
    }
    out.add("total," + values(report.path("totals"), ","));
    return out;
  }

  private static String csvCell(String text) {
    return text.contains(",") || text.contains("\"") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
  }

  private static String values(JsonNode row, String separator) {
    List<String> cells = new ArrayList<>();
    for (String c : COLUMNS) {
      cells.add(cell(row.path(c)));
    }
    return String.join(separator, cells);
  }

  /** Money to the cent, GPU-hours to two places; an amount the service could not know is "-" (table) or empty. */
  private static String cell(JsonNode v) {
    if (v.isMissingNode() || v.isNull()) {
      return "";
    }
    if (v.isIntegralNumber()) {
      return v.asText();
    }
    return String.format(Locale.ROOT, "%.2f", v.asDouble());
  }

  private static List<String> table(JsonNode report) {
    String by = report.path("by").asText();
    List<List<String>> rows = new ArrayList<>();
    List<String> header = new ArrayList<>(List.of(by.toUpperCase(Locale.ROOT)));
    header.addAll(HEADERS);
    rows.add(header);
    for (JsonNode row : report.path("rows")) {
      rows.add(line(row.path(by).asText(), row));
    }
    rows.add(line("TOTAL", report.path("totals")));
    int[] widths = new int[header.size()];
    for (List<String> r : rows) {
      for (int i = 0; i < r.size(); i++) {
        widths[i] = Math.max(widths[i], r.get(i).length());
      }
    }
    List<String> out = new ArrayList<>();
    out.add("Cost from " + report.path("since").asText() + " until " + report.path("until").asText()
        + (report.path("account").isTextual() ? ", account " + report.path("account").asText() + " and its sub-accounts"
            : ""));
    for (List<String> r : rows) {
      StringBuilder b = new StringBuilder(String.format("%-" + widths[0] + "s", r.get(0)));
      for (int i = 1; i < r.size(); i++) {
        b.append("  ").append(String.format("%" + widths[i] + "s", r.get(i)));
      }
      out.add(b.toString().stripTrailing());
    }
    JsonNode totals = report.path("totals");
    if (totals.has("billed_usd")) {
      StringBuilder overhead = new StringBuilder();
      for (JsonNode o : report.path("overhead")) {
        overhead.append(overhead.isEmpty() ? "" : ", ").append(o.path("partition").asText()).append(' ')
            .append(cell(o.path("usd")));
      }
      out.add("Overhead (billed time no job held): " + cell(totals.path("overhead_usd")) + " USD"
          + (overhead.isEmpty() ? "" : " (" + overhead + ")"));
      out.add("Billed: " + cell(totals.path("billed_usd")) + " USD");
    }
    return out;
  }

  private static List<String> line(String name, JsonNode row) {
    List<String> cells = new ArrayList<>(List.of(name));
    for (String c : COLUMNS) {
      String v = cell(row.path(c));
      cells.add(v.isEmpty() ? "-" : v);
    }
    return cells;
  }
}
