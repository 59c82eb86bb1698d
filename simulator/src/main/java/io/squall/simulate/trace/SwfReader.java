package io.squall.simulate.trace;

import java.io.IOException;
import java.io.Reader;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Standard Workload Format of the Parallel Workloads Archive (version 2.2): one job per line,
 * 18 whitespace-separated fields, -1 for unknown, header comments on lines starting with {@code ;}.
 *
 * <p>Submit is field 2 (seconds from the log's start) after the header's {@code UnixStartTime}; a
 * log without one (or with {@code UNKNOWN}) counts from the Unix epoch, 1970-01-01T00:00:00Z, which
 * keeps the gaps between submissions, all the simulation uses. Runtime is field 4; the time limit
 * field 9 (Requested Time, taken as wall-clock time; -1 or 0: none); the user field 12 (User ID),
 * the account field 13 (Group ID), the QOS field 15 (Queue Number: SWF queues are priority
 * classes), the partition field 16; the state comes from field 11 (0 FAILED, 1 COMPLETED,
 * 2 PARTIAL, 3 COMPLETED and 4 FAILED for the last part of a checkpointed job, 5 CANCELLED).
 *
 * <p>SWF has no GPUs. A job's processors (field 5, Allocated, or field 8, Requested, when
 * that is unknown) become {@code ceil(processors / procsPerGpu)} GPUs, packed on nodes of
 * {@code nodeGpus} GPUs ({@link GangShape#packed}). Left out, and counted: jobs without a run time
 * (-1: the log does not know how long they ran) and jobs without processors.
 */
public final class SwfReader implements TraceReader {
  /** Where submit times count from when the header gives no UnixStartTime. */
  public static final Instant NO_START_TIME = Instant.EPOCH;
  static final int FIELDS = 18;
  /** SWF's names for its fields, for messages: index 0 is field 1. */
  private static final String[] NAMES = {"Job Number", "Submit Time", "Wait Time", "Run Time",
      "Number of Allocated Processors", "Average CPU Time Used", "Used Memory", "Requested Number of Processors",
      "Requested Time", "Requested Memory", "Status", "User ID", "Group ID", "Executable (Application) Number",
      "Queue Number", "Partition Number", "Preceding Job Number", "Think Time from Preceding Job"};
  private static final Pattern START_TIME = Pattern.compile("UnixStartTime\\s*:\\s*(\\S*).*",
      Pattern.CASE_INSENSITIVE);
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");

  private final int procsPerGpu;
  private final int nodeGpus;

  /**
   * @param procsPerGpu processors that make one GPU, at least 1
   * @param nodeGpus GPUs on one node, at least 1
   */
  public SwfReader(int procsPerGpu, int nodeGpus) {
    if (procsPerGpu < 1 || nodeGpus < 1) {
      throw new IllegalArgumentException("processors per GPU and GPUs per node must be at least 1, got "
          + procsPerGpu + " and " + nodeGpus);
    }
    this.procsPerGpu = procsPerGpu;
    this.nodeGpus = nodeGpus;
  }

  @Override
  public Trace read(Reader in, String source, boolean skipBadRows) throws IOException {
    TraceLines lines = new TraceLines(in);
    TraceCollector out = new TraceCollector(source, skipBadRows);
    Instant start = NO_START_TIME;
    boolean inHeader = true;
    for (String line = lines.next(); line != null; line = lines.next()) {
      String text = line.strip();
      if (text.isEmpty()) {
        continue;
      }
      if (text.startsWith(";")) {
        Matcher m = START_TIME.matcher(text.substring(1).strip());
        if (inHeader && m.matches() && m.group(1).matches("-?\\d{1,12}")) {
          start = Instant.ofEpochSecond(Long.parseLong(m.group(1)));
        }
        continue;
      }
      inHeader = false;
      try {
        job(new RowFields(source, lines.number()), WHITESPACE.split(text), start, out);
      } catch (TraceException e) {
        out.bad(e);
      }
    }
    return out.trace();
  }

  private void job(RowFields row, String[] f, Instant start, TraceCollector out) {
    if (f.length != FIELDS) {
      throw row.bad("has " + f.length + " fields, SWF has " + FIELDS);
    }
    double runtime = decimal(row, f, 4);
    if (runtime == -1) {
      out.leaveOut("no run time");
      return;
    }
    int allocated = whole(row, f, 5);
    int processors = allocated > 0 ? allocated : whole(row, f, 8);
    if (processors <= 0) {
      out.leaveOut("no processors");
      return;
    }
    double submit = decimal(row, f, 2);
    if (submit < 0) {
      throw row.bad(name(2), RowFields.quoted(f[1]) + " is before the log's start");
    }
    if (runtime < 0) {
      throw row.bad(name(4), RowFields.quoted(f[3]) + " is negative (and not -1, unknown)");
    }
    double requested = decimal(row, f, 9);
    Duration limit = requested > 0 ? row.seconds(name(9), requested) : null;
    GangShape gang = GangShape.packed((processors + procsPerGpu - 1) / procsPerGpu, nodeGpus);
    out.add(new TraceJob(f[0], start.plus(row.seconds(name(2), submit)), known(row, f, 12), known(row, f, 13),
        known(row, f, 16), known(row, f, 15), gang.nodes(), gang.gpusPerNode(), row.seconds(name(4), runtime),
        limit, state(row, f)));
  }

  private static String state(RowFields row, String[] f) {
    return switch (whole(row, f, 11)) {
      case -1 -> null;
      case 0, 4 -> "FAILED";
      case 1, 3 -> "COMPLETED";
      case 2 -> "PARTIAL";
      case 5 -> "CANCELLED";
      default -> throw row.bad(name(11), RowFields.quoted(f[10]) + " is not an SWF status (-1, 0 to 5)");
    };
  }

  /** An id field (user, group, queue, partition) as text; null for -1. */
  private static String known(RowFields row, String[] f, int field) {
    int value = whole(row, f, field);
    return value == -1 ? null : Integer.toString(value);
  }

  private static int whole(RowFields row, String[] f, int field) {
    return row.wholeNumber(name(field), f[field - 1]);
  }

  private static double decimal(RowFields row, String[] f, int field) {
    return row.decimal(name(field), f[field - 1]);
  }

  /** Field {@code n} (from 1) as messages name it: {@code 4 (Run Time)}. */
  static String name(int n) {
    return String.format(Locale.ROOT, "%d (%s)", n, NAMES[n - 1]);
  }
}
