package io.squall.agent;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Numbers a job's steps 0, 1, 2... as Slurm does. The counter is a file in the job's directory
 * on the batch node, locked while it is read and bumped, so concurrent sruns get distinct ids.
 */
final class StepCounter {
  private StepCounter() {}

  /** The counter file of a job: under the agent's work directory when srun knows it, else the temp directory. */
  static Path location(String agentWorkDir, String jobKey) {
    Path base = agentWorkDir != null ? Path.of(agentWorkDir, "jobs")
        : Path.of(System.getProperty("java.io.tmpdir"), "squall-steps");
    return base.resolve(jobKey).resolve("steps");
  }

  /** Answers the next step id and records that it is taken. */
  static int next(Path counter) throws IOException {
    Files.createDirectories(counter.getParent());
    try (FileChannel channel = FileChannel.open(counter, StandardOpenOption.CREATE, StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      FileLock lock = channel.lock();
      try {
        ByteBuffer buffer = ByteBuffer.allocate(32);
        channel.read(buffer, 0);
        String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).trim();
        int step = text.isEmpty() ? 0 : Integer.parseInt(text);
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(Integer.toString(step + 1).getBytes(StandardCharsets.US_ASCII)), 0);
        return step;
      } finally {
        lock.release();
      }
    } catch (NumberFormatException e) {
      throw new IOException("step counter " + counter + " is damaged: " + e.getMessage(), e);
    }
  }
}
