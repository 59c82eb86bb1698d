package io.squall.api.jobs;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

/**
 * A job list ({@code {"jobs":[...]}}, or as rows: {@code {"fields":[names],"rows":[[values],..]}})
 * written to the connection as it is built, in pieces of about {@link #PIECE_BYTES}, each made
 * when the connection asks for the next. squeue asks for every job:
 * at 100,000 jobs the answer is 61 MB, and built whole in one growing array (then copied) it made
 * G1 allocate some 190 MB of humongous arrays per request in a 640 MB heap already holding the
 * queue. A piece stays below half a G1 region (1 MB at that heap), so none is humongous, and at
 * most a few are alive at once.
 *
 * <p>Each job is written from its summary map, in the map's own order (as rows, its values alone:
 * every map has the row fields, in their order); its values are plain (text, whole numbers,
 * booleans, null), written straight to the generator rather than looked up by type.
 */
final class JobListChunks {
  /** Flushed to the connection once this much is written: 64 KB, about 100 jobs. */
  static final int PIECE_BYTES = 64 * 1024;
  private static final JsonFactory JSON = new JsonFactory();
  private static final ObjectMapper VALUES = new ObjectMapper().disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);

  private JobListChunks() {}

  /**
   * The list's pieces, made on {@code executor} (the view of each job is work, and the event loop
   * must stay free for heartbeats) one per demand; {@code jobs} is read lazily, piece by piece.
   *
   * @param rowFields the names of the views' fields, in order, to write rows; null for objects
   */
  static <T> Flux<byte[]> of(Iterator<T> jobs, List<String> rowFields, Function<T, Map<String, Object>> view,
      Executor executor) {
    return Flux.<byte[], Pieces<T>>generate(() -> new Pieces<>(jobs, rowFields, view), (pieces, sink) -> {
      byte[] piece = pieces.next();
      if (piece == null) {
        sink.complete();
      } else {
        sink.next(piece);
      }
      return pieces;
    }).subscribeOn(Schedulers.fromExecutor(executor));
  }

  /** Writes the list into one reused buffer, handing out what was written each time it is full. */
  private static final class Pieces<T> {
    private final Iterator<T> jobs;
    private final Function<T, Map<String, Object>> view;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(PIECE_BYTES + 4096);
    private final JsonGenerator out;
    private final boolean rows;
    private boolean done;

    Pieces(Iterator<T> jobs, List<String> rowFields, Function<T, Map<String, Object>> view) {
      this.jobs = jobs;
      this.view = view;
      this.rows = rowFields != null;
      try {
        out = JSON.createGenerator(buffer, JsonEncoding.UTF8);
        out.writeStartObject();
        if (rows) {
          out.writeArrayFieldStart("fields");
          for (String name : rowFields) {
            out.writeString(name);
          }
          out.writeEndArray();
        }
        out.writeArrayFieldStart(rows ? "rows" : "jobs");
      } catch (IOException e) {
        throw new UncheckedIOException(e); // into memory: cannot happen
      }
    }

    /** The next piece, or null once the list is written. */
    byte[] next() {
      if (done) {
        return null;
      }
      try {
        while (jobs.hasNext() && buffer.size() + out.getOutputBuffered() < PIECE_BYTES) {
          Map<String, Object> job = view.apply(jobs.next());
          if (job != null) {
            write(job);
          }
        }
        if (!jobs.hasNext()) {
          out.writeEndArray();
          out.writeEndObject();
          out.close();
          done = true;
        } else {
          out.flush();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      byte[] piece = buffer.toByteArray();
      buffer.reset();
      return piece;
    }

    private void write(Map<String, Object> job) throws IOException {
      if (rows) {
        out.writeStartArray();
        for (Object v : job.values()) {
          value(v);
        }
        out.writeEndArray();
        return;
      }
      out.writeStartObject();
      for (Map.Entry<String, Object> field : job.entrySet()) {
        out.writeFieldName(field.getKey());
        value(field.getValue());
      }
      out.writeEndObject();
    }

    private void value(Object v) throws IOException {
      if (v == null) {
        out.writeNull();
      } else if (v instanceof String s) {
        out.writeString(s);
      } else if (v instanceof Integer i) {
        out.writeNumber(i);
      } else if (v instanceof Long l) {
        out.writeNumber(l);
      } else if (v instanceof Boolean b) {
        out.writeBoolean(b);
      } else {
        VALUES.writeValue(out, v); // none yet; written as before, by its type
      }
    }
  }
}
