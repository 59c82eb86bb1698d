package io.squall.simulate.trace;

import java.io.IOException;
import java.io.Reader;

/**
 * Reads one trace format. Implementations are immutable and thread-safe; each call reads its own
 * input.
 */
public interface TraceReader {
  /**
   * Reads a whole trace.
   *
   * @param in the trace's text; read to its end, not closed (the caller opened it)
   * @param source what to call the trace in messages, usually its file name
   * @param skipBadRows false: the first bad row fails the read; true: bad rows are skipped and
   *     listed in {@link Trace#skipped()} (a bad header, and JSON that is not well-formed, still
   *     fail: nothing after them can be trusted)
   * @return the jobs, in order of submission
   * @throws TraceException when the trace is empty, its header lacks a column the format needs, a
   *     row is bad (unless skipped), or no job is left to replay; the message names the source,
   *     line and field
   * @throws IOException when {@code in} cannot be read
   */
  Trace read(Reader in, String source, boolean skipBadRows) throws IOException;
}
