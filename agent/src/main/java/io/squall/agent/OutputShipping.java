package io.squall.agent;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Ships the batch steps' output files to the controller while they grow, every interval, and
 * once more when a script ends. A job's files are followed until they are shipped in full after
 * its script ended, or until the controller deletes the job.
 *
 * <p>A job key can come back (a requeued job) while an earlier, deleted run's last pass is still
 * to go, so each run's entry is handled as itself, never looked up again by key.
 */
final class OutputShipping {
  private final ShippedFile.OutputPost post;
  private final ScheduledExecutorService executor;
  private final Duration interval;
  private final AgentLog log;
  private final AgentLog.Repeats failures = new AgentLog.Repeats();
  private final Map<String, Followed> jobs = new ConcurrentHashMap<>();

  /** One run's files, as {@link #follow} answers them. */
  static final class Followed {
    private final String job;
    private final List<ShippedFile> files;
    private volatile boolean ended;

    private Followed(String job, List<ShippedFile> files) {
      this.job = job;
      this.files = files;
    }
  }

  OutputShipping(ShippedFile.OutputPost post, ScheduledExecutorService executor, Duration interval, AgentLog log) {
    this.post = post;
    this.executor = executor;
    this.interval = interval;
    this.log = log;
  }

  void start() {
    executor.scheduleWithFixedDelay(() -> {
      try {
        jobs.values().forEach(this::pump);
      } catch (RuntimeException e) {
        log.warn("shipping output failed: " + e);
      }
    }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Starts following a run's files; a shared stdout/stderr file is shipped once, as stdout. It
   * replaces whatever an earlier run of the key left here: that run was deleted, and its last
   * pass holds on to its own entry.
   */
  Followed follow(String job, Path stdout, Path stderr) {
    List<ShippedFile> files = stdout.equals(stderr)
        ? List.of(new ShippedFile(job, "stdout", stdout, ShippedFile.DEFAULT_CHUNK_BYTES))
        : List.of(new ShippedFile(job, "stdout", stdout, ShippedFile.DEFAULT_CHUNK_BYTES),
            new ShippedFile(job, "stderr", stderr, ShippedFile.DEFAULT_CHUNK_BYTES));
    Followed f = new Followed(job, files);
    jobs.put(job, f);
    return f;
  }

  /**
   * The run's script has ended: ships the rest now, on the caller's thread, so that the output
   * is complete before the exit is reported whenever the controller is reachable. What cannot be
   * shipped now is retried every interval.
   */
  void ended(Followed f) {
    f.ended = true;
    pump(f);
  }

  /** The controller is done with the job: its current run gets {@link #forget(Followed)}. */
  void forget(String job) {
    Followed f = jobs.get(job);
    if (f != null) {
      forget(f);
    }
  }

  /** One last pass over the run's files, off the caller's thread, then they are no longer followed. */
  void forget(Followed f) {
    try {
      executor.execute(() -> {
        f.ended = true;
        pump(f);
        jobs.remove(f.job, f);
      });
    } catch (RejectedExecutionException e) {
      jobs.remove(f.job, f);
    }
  }

  private void pump(Followed f) {
    boolean complete = true;
    for (ShippedFile file : f.files) {
      try {
        complete &= file.pump(post, f.ended);
      } catch (IOException e) {
        complete = false;
        if (failures.isNew(e.toString())) {
          log.warn("cannot ship " + file.stream() + " of job " + f.job + ": " + e + "; will retry");
        }
      }
    }
    if (complete && f.ended) {
      jobs.remove(f.job, f);
    }
  }
}
