package io.squall.simulate.trace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A job history as read from one trace.
 *
 * @param jobs the jobs to replay, in order of submission; jobs submitted at the same instant keep
 *     the trace's order, so the same trace always gives the same list
 * @param skipped rows that could not be read and were skipped, in the trace's order (empty unless
 *     the trace was read with skipBadRows)
 * @param leftOut jobs the format's documented rules leave out (a job that never started, a job
 *     step, an SWF job without a run time, ...), counted by reason, reasons in alphabetical order
 */
public record Trace(List<TraceJob> jobs, List<SkippedRow> skipped, Map<String, Integer> leftOut) {
  public Trace {
    List<TraceJob> bySubmit = new ArrayList<>(jobs);
    bySubmit.sort(Comparator.comparing(TraceJob::submit)); // List.sort is stable
    jobs = List.copyOf(bySubmit);
    skipped = List.copyOf(skipped);
    leftOut = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(leftOut, "leftOut")));
  }

  /** Jobs left out by the format's rules, whatever the reason. */
  public int leftOutCount() {
    return leftOut.values().stream().mapToInt(Integer::intValue).sum();
  }
}
