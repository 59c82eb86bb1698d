package io.squall.simulate.trace;

import java.io.IOException;
import java.io.Reader;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The output of {@code sacct -a -P -X
 * --format=JobID,User,Account,Partition,Submit,Start,End,Elapsed,Timelimit,NNodes,AllocTRES,ReqTRES,State,QOS}:
 * {@code |}-separated, a header line first (a trailing {@code |}, as {@code -p} prints, is fine).
 *
 * <p>Columns are found by their header name, in any order and any case. JobID, Submit, Elapsed,
 * NNodes and AllocTRES or ReqTRES are needed; User, Account, Partition, QOS, Timelimit, State and
 * Start are read when present. Submit is sacct's local time without a zone
 * ({@code 2026-11-26T10:00:00}), read in the zone given. GPUs come from AllocTRES, or from ReqTRES
 * when AllocTRES is empty, spread evenly over NNodes ({@link GangShape#spread}).
 *
 * <p>Left out, and counted by reason: job steps ({@code 123.batch}, {@code 123.0}; {@code -X}
 * prints none, but a trace without it does); jobs that never started (Start {@code Unknown} or
 * {@code None}, state PENDING, or, without a Start column, CANCELLED with no elapsed time), since
 * they held no node and replaying them would buy nodes for nothing; and jobs still running, whose
 * Elapsed is not yet their runtime. Lines repeating the header (several sacct outputs joined) are
 * passed over.
 */
public final class SacctReader implements TraceReader {
  static final String JOB_ID = "JobID";
  static final String SUBMIT = "Submit";
  static final String ELAPSED = "Elapsed";
  static final String NNODES = "NNodes";
  static final String ALLOC_TRES = "AllocTRES";
  static final String REQ_TRES = "ReqTRES";
  private static final List<String> NEEDED = List.of(JOB_ID, SUBMIT, ELAPSED, NNODES);
  private static final String FORMAT = "sacct -P --format needs JobID,Submit,Elapsed,NNodes and AllocTRES or ReqTRES";
  /** What sacct prints in Start for a job that has not started. */
  private static final Set<String> NOT_STARTED = Set.of("Unknown", "None", "");
  private static final List<String> STILL_RUNNING = List.of("RUNNING", "SUSPENDED", "COMPLETING", "CONFIGURING");

  private final ZoneId zone;

  /** @param zone the zone sacct printed its times in (the TZ of the machine that ran it) */
  public SacctReader(ZoneId zone) {
    this.zone = Objects.requireNonNull(zone, "zone");
  }

  @Override
  public Trace read(Reader in, String source, boolean skipBadRows) throws IOException {
    TraceLines lines = new TraceLines(in);
    String header = lines.next();
    if (header == null || header.isBlank()) {
      throw TraceException.ofTrace(source, "empty: expected sacct -P output, its header line first (" + FORMAT + ")");
    }
    Columns columns = Columns.of(source, lines.number(), header);
    TraceCollector out = new TraceCollector(source, skipBadRows);
    for (String line = lines.next(); line != null; line = lines.next()) {
      if (line.isBlank() || line.equals(header)) {
        continue;
      }
      RowFields row = new RowFields(source, lines.number());
      try {
        row(row, columns.split(row, line), columns, out);
      } catch (TraceException e) {
        out.bad(e);
      }
    }
    return out.trace();
  }

  private void row(RowFields row, String[] fields, Columns c, TraceCollector out) {
    String id = c.get(fields, JOB_ID);
    if (id.isBlank()) {
      throw row.bad(JOB_ID, "is empty");
    }
    if (id.contains(".")) {
      out.leaveOut("job step");
      return;
    }
    String state = RowFields.orNull(c.get(fields, "State"));
    Duration elapsed = value(row, ELAPSED, c.get(fields, ELAPSED));
    String start = c.has("Start") ? c.get(fields, "Start").strip() : null;
    if (neverStarted(start, state, elapsed)) {
      out.leaveOut("never started");
      return;
    }
    if (state != null && STILL_RUNNING.stream().anyMatch(state::startsWith)) {
      out.leaveOut("still running");
      return;
    }
    Instant submit = submit(row, c.get(fields, SUBMIT));
    int nodes = row.wholeNumber(NNODES, c.get(fields, NNODES).strip());
    if (nodes < 1) {
      throw row.bad(NNODES, nodes + " nodes: a job that ran had at least 1");
    }
    String tresColumn = c.has(ALLOC_TRES) && !c.get(fields, ALLOC_TRES).isBlank() ? ALLOC_TRES : REQ_TRES;
    int gpus = c.has(tresColumn) ? gpus(row, tresColumn, c.get(fields, tresColumn)) : 0;
    GangShape gang = GangShape.spread(gpus, nodes);
    Duration limit = c.has("Timelimit") ? limit(row, c.get(fields, "Timelimit")) : null;
    out.add(new TraceJob(id.strip(), submit, RowFields.orNull(c.get(fields, "User")),
        RowFields.orNull(c.get(fields, "Account")), RowFields.orNull(c.get(fields, "Partition")),
        RowFields.orNull(c.get(fields, "QOS")), gang.nodes(), gang.gpusPerNode(), elapsed, limit, state));
  }

  private static boolean neverStarted(String start, String state, Duration elapsed) {
    if (state != null && state.startsWith("PENDING")) {
      return true;
    }
    if (start != null) {
      return NOT_STARTED.contains(start);
    }
    return elapsed.isZero() && state != null && state.startsWith("CANCELLED");
  }

  private Instant submit(RowFields row, String text) {
    try {
      return LocalDateTime.parse(text.strip()).atZone(zone).toInstant();
    } catch (DateTimeParseException e) {
      throw row.bad(SUBMIT, RowFields.quoted(text) + " is not a sacct time (YYYY-MM-DDTHH:MM:SS)");
    }
  }

  private static Duration value(RowFields row, String column, String text) {
    try {
      return SlurmDuration.parse(text.strip());
    } catch (IllegalArgumentException e) {
      throw row.bad(column, e.getMessage());
    }
  }

  private static Duration limit(RowFields row, String text) {
    try {
      return SlurmDuration.limit(text);
    } catch (IllegalArgumentException e) {
      throw row.bad("Timelimit", e.getMessage());
    }
  }

  private static int gpus(RowFields row, String column, String text) {
    try {
      return SacctTres.gpus(text.strip());
    } catch (IllegalArgumentException e) {
      throw row.bad(column, e.getMessage());
    }
  }

  /** Where each column is, by its header name in any case. */
  private record Columns(Map<String, Integer> index, int count, boolean trailingBar) {
    static Columns of(String source, int line, String header) {
      if (header.indexOf('|') < 0) {
        throw TraceException.atLine(source, line, "the header " + RowFields.quoted(header)
            + " is not |-separated: run sacct with -P (--parsable2)");
      }
      boolean trailingBar = header.endsWith("|");
      String[] names = (trailingBar ? header.substring(0, header.length() - 1) : header).split("\\|", -1);
      Map<String, Integer> index = new HashMap<>();
      for (int i = 0; i < names.length; i++) {
        index.putIfAbsent(key(names[i]), i);
      }
      List<String> missing = new ArrayList<>();
      for (String needed : NEEDED) {
        if (!index.containsKey(key(needed))) {
          missing.add(needed);
        }
      }
      if (!index.containsKey(key(ALLOC_TRES)) && !index.containsKey(key(REQ_TRES))) {
        missing.add(ALLOC_TRES + " or " + REQ_TRES);
      }
      if (!missing.isEmpty()) {
        throw TraceException.atLine(source, line, "the header has no " + String.join(", ", missing)
            + (missing.size() == 1 ? " column" : " columns") + " (" + FORMAT + ")");
      }
      return new Columns(index, names.length, trailingBar);
    }

    String[] split(RowFields row, String line) {
      String body = trailingBar && line.endsWith("|") ? line.substring(0, line.length() - 1) : line;
      String[] fields = body.split("\\|", -1);
      if (fields.length != count) {
        throw row.bad("has " + fields.length + " fields, the header " + count);
      }
      return fields;
    }

    boolean has(String column) {
      return index.containsKey(key(column));
    }

    /** The column's text on this row; "" for a column the header does not have. */
    String get(String[] fields, String column) {
      Integer i = index.get(key(column));
      return i == null ? "" : fields[i];
    }

    private static String key(String name) {
      return name.strip().toLowerCase(Locale.ROOT);
    }
  }
}
