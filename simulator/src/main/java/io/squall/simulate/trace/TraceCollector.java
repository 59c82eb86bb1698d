package io.squall.simulate.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** What a reader found row by row: jobs, rows skipped as bad and jobs left out by rule. */
final class TraceCollector {
  private final String source;
  private final boolean skipBadRows;
  private final List<TraceJob> jobs = new ArrayList<>();
  private final List<SkippedRow> skipped = new ArrayList<>();
  private final Map<String, Integer> leftOut = new TreeMap<>();

  TraceCollector(String source, boolean skipBadRows) {
    this.source = source;
    this.skipBadRows = skipBadRows;
  }

  void add(TraceJob job) {
    jobs.add(job);
  }

  /** A row the format's rules leave out, for the reason given (counted, not an error). */
  void leaveOut(String reason) {
    leftOut.merge(reason, 1, Integer::sum);
  }

  /** A bad row: thrown, or recorded when bad rows are skipped. */
  void bad(TraceException problem) {
    if (!skipBadRows || problem.line() < 1) {
      throw problem;
    }
    skipped.add(problem.skipped());
  }

  /**
   * The trace.
   *
   * @throws TraceException when it holds no job to replay: an empty trace says so, one whose rows
   *     were all left out or skipped says how many and why
   */
  Trace trace() {
    if (jobs.isEmpty()) {
      int out = leftOut.values().stream().mapToInt(Integer::intValue).sum();
      if (out == 0 && skipped.isEmpty()) {
        throw TraceException.ofTrace(source, "no jobs in it");
      }
      List<String> why = new ArrayList<>();
      if (out > 0) {
        List<String> reasons = new ArrayList<>();
        leftOut.forEach((reason, count) -> reasons.add(reason + " " + count));
        why.add(String.format(Locale.ROOT, "%d left out (%s)", out, String.join(", ", reasons)));
      }
      if (!skipped.isEmpty()) {
        why.add(skipped.size() + (skipped.size() == 1 ? " bad row" : " bad rows") + " skipped");
      }
      throw TraceException.ofTrace(source, "no job to replay: " + String.join(", ", why));
    }
    return new Trace(jobs, skipped, leftOut);
  }
}
