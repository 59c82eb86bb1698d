package io.squall.simulate.trace;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The real traces under {@code src/test/resources/traces} (see the README there), and text traces. */
final class Samples {
  private Samples() {}

  static Trace read(TraceReader reader, String sample) {
    InputStream in = Samples.class.getResourceAsStream("/traces/" + sample);
    if (in == null) {
      throw new IllegalArgumentException("no sample " + sample);
    }
    try (Reader text = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      return reader.read(text, sample, false);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Trace read(TraceReader reader, String source, String text, boolean skipBadRows) {
    try {
      return reader.read(new StringReader(text), source, skipBadRows);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
