package io.squall.api.output;

import io.squall.api.config.SquallConfig;
import io.squall.core.model.JobKey;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Job output gathered from the nodes, one file per job and stream under the data directory. An
 * agent's chunk is appended only at the offset the store has reached, so resent chunks are
 * harmless and a gap is healed by the agent resending from the answered size.
 */
@Singleton
public final class OutputStore {
  private final Path root;

  public OutputStore(SquallConfig config) {
    this.root = config.getDataDir().resolve("output");
  }

  /** Appends {@code data} if it starts where the stored output ends; answers the stored size in bytes. */
  public synchronized long append(String job, String stream, long offset, byte[] data) {
    Path file = file(job, stream);
    try {
      Files.createDirectories(file.getParent());
      try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
        long size = f.length();
        if (offset == size && data.length > 0) {
          f.seek(size);
          f.write(data);
          return size + data.length;
        }
        return size;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Forgets a job's gathered output: a requeued job's next run ships its files from the start
   * again (with --open-mode=append they still begin with the earlier runs' output).
   */
  public synchronized void clear(String job) {
    try {
      Files.deleteIfExists(file(job, "stdout"));
      Files.deleteIfExists(file(job, "stderr"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The output from byte {@code from} on; empty when there is none yet. */
  public byte[] read(String job, String stream, long from) {
    Path file = file(job, stream);
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long size = f.length();
      if (from >= size) {
        return new byte[0];
      }
      byte[] out = new byte[(int) Math.min(size - from, 16 * 1024 * 1024)];
      f.seek(from);
      f.readFully(out);
      return out;
    } catch (java.io.FileNotFoundException e) {
      return new byte[0];
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static boolean isStream(String stream) {
    return "stdout".equals(stream) || "stderr".equals(stream);
  }

  private Path file(String job, String stream) {
    if (!isStream(stream)) {
      throw new IllegalArgumentException("no output stream " + stream);
    }
    // Parsing the key keeps file names to digits and '_' whatever an agent sends.
    return root.resolve(JobKey.parse(job) + "." + stream);
  }
}
