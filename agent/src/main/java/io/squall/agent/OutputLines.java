package io.squall.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Cuts a task's output stream into the pieces srun relays: lines, newline kept, and a line longer
 * than the limit in pieces, so that endless output without newlines stays bounded. A piece never
 * ends inside a UTF-8 character, which would reach srun as two replacement characters.
 */
final class OutputLines {
  /** The longest piece sent, in bytes. */
  static final int MAX_LINE_BYTES = 64 * 1024;

  private OutputLines() {}

  /** Reads {@code in} until it ends (or fails), handing each piece to {@code sink}; closes it. */
  static void split(InputStream in, int maxBytes, Consumer<String> sink) {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try (InputStream pipe = in) {
      int n;
      while ((n = pipe.read(buffer)) > 0) {
        int start = 0;
        for (int i = 0; i < n; i++) {
          if (buffer[i] == '\n') {
            line.write(buffer, start, i - start + 1);
            start = i + 1;
            emit(line, line.size(), sink);
          } else if (line.size() + (i - start) + 1 >= maxBytes) {
            line.write(buffer, start, i - start + 1);
            start = i + 1;
            emit(line, ShippedFile.completeCharacters(line.toByteArray()), sink);
          }
        }
        line.write(buffer, start, n - start);
      }
    } catch (IOException e) {
      // The pipe was closed under us; what was read is still sent below.
    }
    emit(line, line.size(), sink);
  }

  /** Sends the first {@code length} bytes of {@code line}; the rest (part of a character) stays. */
  private static void emit(ByteArrayOutputStream line, int length, Consumer<String> sink) {
    byte[] bytes = line.toByteArray();
    if (length > 0) {
      sink.accept(new String(bytes, 0, length, StandardCharsets.UTF_8));
    }
    line.reset();
    line.write(bytes, length, bytes.length - length);
  }
}
