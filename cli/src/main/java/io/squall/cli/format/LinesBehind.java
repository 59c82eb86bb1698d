package io.squall.cli.format;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Function;

/**
 * Renders rows into lines on a thread of its own, in the order they come, while the caller reads
 * the next ones: squeue reads and parses 100,000 jobs in about 0.2 s and renders them in about
 * 0.15 s, and on two cores the two overlap. The caller adds each row as it is read ({@link #add}),
 * then takes the lines ({@link #lines}); closing without taking them stops the thread.
 *
 * @param <T> the row type
 */
public final class LinesBehind<T> implements AutoCloseable {
  /** Rows handed over at a time: one queue operation per batch, not per row. */
  private static final int BATCH = 512;
  private static final List<Object> END = new ArrayList<>();

  private final Function<T, String> render;
  private final BlockingQueue<List<?>> queue = new ArrayBlockingQueue<>(64);
  private final List<String> lines = new ArrayList<>();
  /** Package-private for tests. */
  final Thread thread;
  private List<T> batch = new ArrayList<>(BATCH);
  private Throwable failure;

  public LinesBehind(Function<T, String> render) {
    this.render = render;
    this.thread = new Thread(this::renderAll, "squall-render");
    thread.setDaemon(true);
    thread.start();
  }

  /** Hands one row over; returns null, so that it can stand where a row's reader is asked for. */
  public Void add(T row) {
    batch.add(row);
    if (batch.size() == BATCH) {
      put(batch);
      batch = new ArrayList<>(BATCH);
    }
    return null;
  }

  /** Every row's line, in order, once the last is rendered. */
  public List<String> lines() {
    put(batch);
    put(END);
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the lines were rendered", e);
    }
    if (failure instanceof RuntimeException e) {
      throw e;
    }
    if (failure != null) {
      throw new IllegalStateException(failure);
    }
    return lines;
  }

  @Override
  public void close() {
    thread.interrupt();
  }

  private void put(List<?> rows) {
    try {
      queue.put(rows);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while handing rows over", e);
    }
  }

  @SuppressWarnings("unchecked")
  private void renderAll() {
    try {
      for (List<?> rows = queue.take(); rows != END; rows = queue.take()) {
        if (failure != null) {
          continue; // drained, so that the reader never waits on a full queue
        }
        try {
          for (Object row : rows) {
            lines.add(render.apply((T) row));
          }
        } catch (RuntimeException | Error e) {
          failure = e;
        }
      }
    } catch (InterruptedException stopped) {
      // closed before the lines were taken: the reader failed
    }
  }
}
