package io.squall.simulate.trace;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.Reader;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Squall's own trace format, JSON Lines: one job per line, a JSON object with
 * {@code id, submit, user, account, partition, qos, nodes, gpus_per_node, runtime_s, time_limit_s,
 * state}. {@code submit} (an ISO-8601 instant, {@code 2026-11-26T10:00:00Z} or with an offset),
 * {@code nodes} (a whole number, at least 1) and {@code runtime_s} (seconds, 0 or more, fractions
 * allowed) are required; {@code gpus_per_node} is a whole number, 0 when absent; {@code time_limit_s}
 * is positive seconds or absent; {@code id} is a string or a whole number, the line number when
 * absent; the rest are strings or absent. {@code null} is the same as absent. A field not listed
 * here is an error (a misspelt {@code gpus} would otherwise replay every job without GPUs), as is a
 * field given twice. Blank lines are passed over. Each line stands alone, so a line that is not
 * JSON is a bad row like any other and can be skipped.
 */
public final class JsonlReader implements TraceReader {
  static final List<String> FIELDS = List.of("id", "submit", "user", "account", "partition", "qos", "nodes",
      "gpus_per_node", "runtime_s", "time_limit_s", "state");

  @Override
  public Trace read(Reader in, String source, boolean skipBadRows) throws IOException {
    TraceLines lines = new TraceLines(in);
    TraceCollector out = new TraceCollector(source, skipBadRows);
    for (String line = lines.next(); line != null; line = lines.next()) {
      if (line.isBlank()) {
        continue;
      }
      RowFields row = new RowFields(source, lines.number());
      try {
        out.add(job(new JsonRow(row, parse(row, line))));
      } catch (TraceException e) {
        out.bad(e);
      }
    }
    return out.trace();
  }

  private static JsonNode parse(RowFields row, String line) {
    try {
      return JsonRow.JSON.readTree(line);
    } catch (JacksonException e) {
      throw row.bad("is not JSON: " + e.getOriginalMessage());
    }
  }

  private static TraceJob job(JsonRow job) {
    job.onlyFields(FIELDS);
    String id = job.id("id");
    Instant submit = submit(job);
    int nodes = job.requiredWholeNumber("nodes");
    if (nodes < 1) {
      throw job.bad("nodes", nodes + " nodes: a job has at least 1");
    }
    Integer gpus = job.wholeNumber("gpus_per_node");
    if (gpus != null && gpus < 0) {
      throw job.bad("gpus_per_node", gpus + " is negative");
    }
    double runtime = job.requiredNumber("runtime_s");
    if (runtime < 0) {
      throw job.bad("runtime_s", runtime + " is negative");
    }
    Double limit = job.number("time_limit_s");
    if (limit != null && limit <= 0) {
      throw job.bad("time_limit_s", limit + " is not positive (leave it out for none)");
    }
    return new TraceJob(id == null ? Integer.toString(job.line()) : id, submit, job.text("user"),
        job.text("account"), job.text("partition"), job.text("qos"), nodes, gpus == null ? 0 : gpus,
        job.seconds("runtime_s", runtime), limit == null ? null : job.seconds("time_limit_s", limit),
        job.text("state"));
  }

  private static Instant submit(JsonRow job) {
    String submit = job.requiredText("submit");
    try {
      return Instant.parse(submit);
    } catch (DateTimeParseException e) {
      throw job.bad("submit", RowFields.quoted(submit) + " is not an ISO-8601 instant (2026-11-26T10:00:00Z)");
    }
  }
}
