package io.squall.simulate.trace;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.io.Reader;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * Jobs of Microsoft's Philly GPU cluster (Jeon et al., USENIX ATC '19) in the form Squall bundles
 * them ({@code philly-multigpu-jobs.json}): a JSON array of
 * {@code {"id", "num_gpus", "runtime" (minutes), "attempts": [...], "submitted_time": "yyyy-MM-dd HH:mm:ss"}}.
 *
 * <p>A job's {@code num_gpus} are packed on nodes of {@code nodeGpus} GPUs:
 * {@code ceil(num_gpus / nodeGpus)} nodes of {@code num_gpus / nodes} GPUs, rounded up
 * ({@link GangShape#packed}); its runtime is {@code runtime} (the time its attempts ran); its submit
 * time is {@code submitted_time} read in the zone given (the trace says none). Philly records no
 * user, account, time limit or state: those are null. Other fields ({@code attempts}) are passed
 * over. A job's line is the line its object starts on; JSON that is not well-formed fails the read
 * even when bad rows are skipped, since where the next job starts is then unknown.
 */
public final class PhillyReader implements TraceReader {
  static final DateTimeFormatter SUBMITTED = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");
  /** Reads one job of the array at a time: the jobs after it are not trailing text. */
  private static final ObjectReader ONE_JOB = JsonRow.JSON.reader()
      .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final ZoneId zone;
  private final int nodeGpus;

  /**
   * @param zone the zone {@code submitted_time} is read in
   * @param nodeGpus GPUs on one node, at least 1
   */
  public PhillyReader(ZoneId zone, int nodeGpus) {
    if (nodeGpus < 1) {
      throw new IllegalArgumentException("GPUs per node must be at least 1, got " + nodeGpus);
    }
    this.zone = Objects.requireNonNull(zone, "zone");
    this.nodeGpus = nodeGpus;
  }

  @Override
  public Trace read(Reader in, String source, boolean skipBadRows) throws IOException {
    TraceCollector out = new TraceCollector(source, skipBadRows);
    try (JsonParser json = JsonRow.JSON.createParser(in)) {
      json.disable(JsonParser.Feature.AUTO_CLOSE_SOURCE); // the caller opened it, the caller closes it
      JsonToken first = json.nextToken();
      if (first == null) {
        throw TraceException.ofTrace(source, "empty: expected a JSON array of Philly jobs");
      }
      if (first != JsonToken.START_ARRAY) {
        throw TraceException.atLine(source, json.currentTokenLocation().getLineNr(),
            "expected a JSON array of Philly jobs, found " + json.getText());
      }
      for (JsonToken t = json.nextToken(); t != JsonToken.END_ARRAY; t = json.nextToken()) {
        if (t == null) {
          throw TraceException.atLine(source, json.currentLocation().getLineNr(),
              "malformed JSON: the array of jobs is not closed");
        }
        RowFields row = new RowFields(source, json.currentTokenLocation().getLineNr());
        JsonNode node = ONE_JOB.readTree(json);
        try {
          job(new JsonRow(row, node), out);
        } catch (TraceException e) {
          out.bad(e);
        }
      }
      if (json.nextToken() != null) {
        throw TraceException.atLine(source, json.currentTokenLocation().getLineNr(),
            "malformed JSON: text after the array of jobs");
      }
    } catch (JacksonException e) {
      JsonLocation at = e.getLocation();
      throw TraceException.atLine(source, at == null ? 1 : Math.max(1, at.getLineNr()),
          "malformed JSON: " + e.getOriginalMessage(), e);
    }
    return out.trace();
  }

  private void job(JsonRow job, TraceCollector out) {
    String id = job.id("id");
    if (id == null) {
      throw job.bad("id", "is missing");
    }
    int gpus = job.requiredWholeNumber("num_gpus");
    if (gpus < 0) {
      throw job.bad("num_gpus", gpus + " is negative");
    }
    double minutes = job.requiredNumber("runtime");
    if (minutes < 0) {
      throw job.bad("runtime", minutes + " minutes is negative");
    }
    String submitted = job.requiredText("submitted_time");
    Instant submit;
    try {
      submit = LocalDateTime.parse(submitted, SUBMITTED).atZone(zone).toInstant();
    } catch (DateTimeParseException e) {
      throw job.bad("submitted_time", RowFields.quoted(submitted) + " is not a time (yyyy-MM-dd HH:mm:ss)");
    }
    GangShape gang = GangShape.packed(gpus, nodeGpus);
    out.add(new TraceJob(id, submit, null, null, null, null, gang.nodes(), gang.gpusPerNode(),
        job.seconds("runtime", minutes * 60), null, null));
  }
}
