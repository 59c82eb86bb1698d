package io.squall.api.spot;

import io.squall.api.config.ClusterLayout;
import io.squall.api.state.ApiException;
import io.squall.api.store.CheckpointRepository;
import io.squall.api.store.CheckpointRow;
import io.squall.checkpoint.Checkpoint;
import io.squall.checkpoint.CheckpointFiles;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoints of each job, durable across requeues and controller restarts: registered
 * explicitly ({@code squall checkpoint register PATH --step N} in the job, through its node's
 * agent) or found as files matching the partition's {@code checkpoint-pattern} in the job's
 * checkpoint directory ({@link CheckpointFiles}). The latest ({@link Checkpoint#latest}) is what
 * a restarted job is told to restore from.
 */
@Singleton
public final class CheckpointCatalog {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointCatalog.class);
  public static final int MAX_PATH = 4096;
  /** A pattern file younger than this may still be being written. */
  private static final Duration SETTLE = Duration.ofSeconds(2);

  private final CheckpointRepository checkpoints;
  private final ClusterLayout layout;
  private final InstantSource clock;

  public CheckpointCatalog(CheckpointRepository checkpoints, ClusterLayout layout, InstantSource clock) {
    this.checkpoints = checkpoints;
    this.layout = layout;
    this.clock = clock;
  }

  /**
   * Records a checkpoint of job {@code jobKey}, as its node's agent relays it.
   *
   * @throws ApiException 400 for a negative step, or a path that is empty, overlong, or neither
   *     absolute nor a URL (the job's tool makes a relative one absolute against its directory)
   */
  public CheckpointRow register(String jobKey, long step, String path, String node) {
    if (step < 0) {
      throw ApiException.badRequest("step: must be 0 or more, not " + step);
    }
    if (path == null || path.isBlank() || path.indexOf('\0') >= 0) {
      throw ApiException.badRequest("path: give the checkpoint's path");
    }
    if (!path.startsWith("/") && !path.contains("://")) {
      throw ApiException.badRequest("path: absolute, or a URL such as s3://bucket/key, not '" + path + "'");
    }
    if (path.length() > MAX_PATH) {
      throw ApiException.badRequest("path: at most " + MAX_PATH + " characters, not " + path.length());
    }
    return checkpoints.save(new CheckpointRow(null, jobKey, step, path, node, clock.instant()));
  }

  /**
   * Every checkpoint of the job, oldest first, after registering the pattern's new files. A job
   * whose partition is gone from the configuration has only what was registered.
   */
  public List<CheckpointRow> list(String jobKey, String partition) {
    List<CheckpointRow> rows = checkpoints.findByJobKeyOrderByStepAscAndIdAsc(jobKey);
    CheckpointPolicy policy = partition == null ? null : layout.findCheckpointPolicy(partition).orElse(null);
    if (policy != null && discover(jobKey, policy, rows)) {
      rows = checkpoints.findByJobKeyOrderByStepAscAndIdAsc(jobKey);
    }
    return rows;
  }

  /** The checkpoint to restore from ({@link Checkpoint#latest}: the highest step, the latest among equals). */
  public Optional<Checkpoint> latest(String jobKey, String partition) {
    return latestOf(list(jobKey, partition));
  }

  /** The checkpoint to restore from among these. */
  public static Optional<Checkpoint> latestOf(List<CheckpointRow> rows) {
    List<Checkpoint> all = new ArrayList<>();
    rows.forEach(r -> all.add(new Checkpoint(r.step(), r.path(), r.registered())));
    return Checkpoint.latest(all);
  }

  /**
   * Files matching the partition's pattern in the job's directory become registered checkpoints;
   * answers whether any did.
   */
  private boolean discover(String jobKey, CheckpointPolicy policy, List<CheckpointRow> registered) {
    if (policy.pattern() == null || !policy.isPath()) {
      return false;
    }
    Path dir = Path.of(policy.directoryOf(jobKey));
    if (!Files.isDirectory(dir)) {
      return false;
    }
    PathMatcher matcher = dir.getFileSystem().getPathMatcher("glob:" + policy.pattern());
    Set<String> known = new HashSet<>();
    registered.forEach(c -> known.add(c.path()));
    List<Path> found = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.filter(f -> matcher.matches(f.getFileName()) && !known.contains(f.toString())).sorted().forEach(found::add);
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("job {}: cannot list checkpoint directory {}: {}", jobKey, dir, e.getMessage());
      return false;
    }
    boolean saved = false;
    for (Path f : found) {
      Optional<Long> step = CheckpointFiles.stepOf(f.getFileName().toString());
      if (step.isEmpty()) {
        continue; // no step a job would count to
      }
      Instant written;
      try {
        // When the file was written, not when it was found: that is when the work was safe.
        written = Files.getLastModifiedTime(f).toInstant();
      } catch (IOException e) {
        continue; // gone since it was listed
      }
      if (written.isAfter(clock.instant().minus(SETTLE))) {
        continue; // perhaps still being written: taken once it has been left alone a moment
      }
      if (f.toString().length() > MAX_PATH) {
        continue;
      }
      checkpoints.save(new CheckpointRow(null, jobKey, step.get(), f.toString(), null, written));
      saved = true;
    }
    return saved;
  }

  /**
   * The job's checkpoint directory. The node's agent makes it (a path) for the job's user, who
   * alone may write it; a URL the job's own code writes to.
   */
  public String directoryOf(String jobKey, String partition) {
    return layout.checkpointPolicy(partition).directoryOf(jobKey);
  }
}
