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
 */
final class OutputShipping {
  private final ShippedFile.OutputPost post;
  private final ScheduledExecutorService executor;
  private final Duration interval;
  private final AgentLog log;
  private final AgentLog.Repeats failures = new AgentLog.Repeats();
  private final Map<String, Followed> jobs = new ConcurrentHashMap<>();

  private static final class Followed {
    final List<ShippedFile> files;
    volatile boolean ended;

    Followed(List<ShippedFile> files) {
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
        jobs.keySet().forEach(this::pump);
      } catch (RuntimeException e) {
        log.warn("shipping output failed: " + e);
      }
    }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Starts following a job's files; a shared stdout/stderr file is shipped once, as stdout. */
  void follow(String job, Path stdout, Path stderr) {
    List<ShippedFile> files = stdout.equals(stderr)
        ? List.of(new ShippedFile(job, "stdout", stdout, ShippedFile.DEFAULT_CHUNK_BYTES))
        : List.of(new ShippedFile(job, "stdout", stdout, ShippedFile.DEFAULT_CHUNK_BYTES),
            new ShippedFile(job, "stderr", stderr, ShippedFile.DEFAULT_CHUNK_BYTES));
    jobs.putIfAbsent(job, new Followed(files));
  }

  /**
   * The job's script has ended: ships the rest now, on the caller's thread, so that the output
   * is complete before the exit is reported whenever the controller is reachable. What cannot be
   * shipped now is retried every interval.
   */
  void ended(String job) {
    Followed f = jobs.get(job);
    if (f != null) {
      f.ended = true;
      pump(job);
    }
  }

  /** The controller is done with the job: one last pass, off the caller's thread, then stop following. */
  void forget(String job) {
    try {
      executor.execute(() -> {
        Followed f = jobs.get(job);
        if (f != null) {
          f.ended = true;
          pump(job);
          jobs.remove(job);
        }
      });
    } catch (RejectedExecutionException e) {
      jobs.remove(job);
    }
  }

  /** Whether a job's files are still followed. */
  boolean follows(String job) {
    return jobs.containsKey(job);
  }

  private void pump(String job) {
    Followed f = jobs.get(job);
    if (f == null) {
      return;
    }
    boolean complete = true;
    for (ShippedFile file : f.files) {
      try {
        complete &= file.pump(post, f.ended);
      } catch (IOException e) {
        complete = false;
        if (failures.isNew(e.toString())) {
          log.warn("cannot ship " + file.stream() + " of job " + job + ": " + e + "; will retry");
        }
      }
    }
    if (complete && f.ended) {
      jobs.remove(job, f);
    }
  }
}
