package io.squall.agent;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A streamed response of JSON lines, flushed line by line so that srun prints a task's output
 * as it comes. Thread-safe: a step's tasks write concurrently. Once a write fails (srun has
 * gone), later lines are dropped and {@code onBroken} runs, once.
 */
final class JsonLines {
  private final OutputStream out;
  private final Runnable onBroken;
  private boolean broken;

  JsonLines(OutputStream out, Runnable onBroken) {
    this.out = out;
    this.onBroken = onBroken;
  }

  void write(Object message) {
    synchronized (this) {
      if (broken) {
        return;
      }
      try {
        out.write(Json.MAPPER.writeValueAsBytes(message));
        out.write('\n');
        out.flush();
        return;
      } catch (IOException e) {
        broken = true;
      }
    }
    onBroken.run();
  }
}
