package io.squall.cli.service;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * An answer's body whose every read may wait at most a time limit for the controller: past it
 * the body is closed and the read ends in a {@link Transport.Timeout}. The JDK's HttpClient applies
 * its request timeout only until the headers arrive (JDK-8258397), so without this a controller
 * that stalls in the middle of an answer (stopped, or cut off by the network) held the command
 * for ever, where {@link PlainHttpTransport}'s read timeout ends it.
 */
final class SilenceLimit extends FilterInputStream {
  /** One daemon thread for every body: it only looks at the clock and closes streams. */
  private static final ScheduledExecutorService WATCH = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "squall-answer-watch");
    t.setDaemon(true);
    return t;
  });

  private final long limitNanos;
  private final ScheduledFuture<?> watch;
  /** {@code System.nanoTime()} when the read under way began; 0 when none is. */
  private volatile long readingSince;
  private volatile boolean expired;

  /** @param limit how long one read may wait for the controller */
  SilenceLimit(InputStream body, Duration limit) {
    super(body);
    this.limitNanos = limit.toNanos();
    long every = Math.max(10, limit.toMillis() / 4);
    this.watch = WATCH.scheduleAtFixedRate(this::check, every, every, TimeUnit.MILLISECONDS);
  }

  private void check() {
    long since = readingSince;
    if (since != 0 && System.nanoTime() - since > limitNanos) {
      expired = true;
      watch.cancel(false);
      try {
        in.close(); // wakes the read that waits
      } catch (IOException e) {
        // Closing is all that is wanted: the read reports the timeout.
      }
    }
  }

  @Override
  public int read() throws IOException {
    begin();
    try {
      return ended(in.read());
    } catch (IOException e) {
      throw failed(e);
    } finally {
      readingSince = 0;
    }
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    begin();
    try {
      return ended(in.read(b, off, len));
    } catch (IOException e) {
      throw failed(e);
    } finally {
      readingSince = 0;
    }
  }

  private void begin() throws Transport.Timeout {
    if (expired) {
      throw new Transport.Timeout(false, null);
    }
    readingSince = System.nanoTime();
  }

  /** A closed body may read as its end: a read the watch cut short is a timeout, not the answer's end. */
  private int ended(int read) throws Transport.Timeout {
    if (expired) {
      throw new Transport.Timeout(false, null);
    }
    return read;
  }

  private IOException failed(IOException e) {
    return expired ? new Transport.Timeout(false, e) : e;
  }

  @Override
  public void close() throws IOException {
    watch.cancel(false);
    super.close();
  }
}
