package io.squall.simulate.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;

/** A trace's lines with their numbers, from 1; a byte order mark before the first is dropped. */
final class TraceLines {
  private static final char BYTE_ORDER_MARK = '\uFEFF';

  private final BufferedReader in;
  private int number;

  TraceLines(Reader in) {
    this.in = in instanceof BufferedReader buffered ? buffered : new BufferedReader(in);
  }

  /** The next line without its terminator, or null at the end. */
  String next() throws IOException {
    String line = in.readLine();
    if (line == null) {
      return null;
    }
    number++;
    return number == 1 && !line.isEmpty() && line.charAt(0) == BYTE_ORDER_MARK ? line.substring(1) : line;
  }

  /** The number of the line {@link #next} returned last. */
  int number() {
    return number;
  }
}
