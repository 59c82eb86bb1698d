package io.squall.checkpoint;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Files a job drops into its checkpoint directory that count as registered checkpoints: names
 * matching the partition's glob ({@code checkpoint-pattern}, e.g. {@code step-*.ckpt}); the step
 * is the last number in the name (0 when there is none).
 */
public final class CheckpointFiles {
  private static final Pattern LAST_NUMBER = Pattern.compile("(\\d+)(?!.*\\d)");
  private static final int MAX_DIGITS = 18;

  private CheckpointFiles() {}

  /** The step a checkpoint file's name says: its last number; empty when it is too long to be one. */
  public static Optional<Long> stepOf(String fileName) {
    Matcher m = LAST_NUMBER.matcher(fileName);
    if (!m.find()) {
      return Optional.of(0L);
    }
    String digits = m.group(1).replaceFirst("^0+(?=\\d)", "");
    return digits.length() > MAX_DIGITS ? Optional.empty() : Optional.of(Long.parseLong(digits));
  }

  /** The directory of a job's checkpoints under its partition's {@code checkpoint-dir}. */
  public static String directoryOf(String checkpointDir, String jobKey) {
    return checkpointDir.endsWith("/") ? checkpointDir + jobKey : checkpointDir + "/" + jobKey;
  }

  /** Whether checkpoints lie on a filesystem (a path), not in an object store (a URI). */
  public static boolean isPath(String checkpointDir) {
    return !checkpointDir.contains("://");
  }
}
