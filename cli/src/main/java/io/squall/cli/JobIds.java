package io.squall.cli;

import io.squall.core.model.JobKey;
import io.squall.core.sbatch.ArraySpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Job ids as users type them: {@code 42}, {@code 42_3}, and task ranges {@code 42_[1-3,7]}
 * (expanded here, since the service addresses one job or task per call). Ids are read by core's
 * {@link JobKey}, task ranges by its {@link ArraySpec} (steps, throttle and MaxArraySize as for
 * {@code --array}).
 */
final class JobIds {
  private JobIds() {}

  /**
   * Each word may hold several ids separated by commas; a comma inside a task range's brackets
   * belongs to the range.
   *
   * @throws UsageException {@code Invalid job id X}, as Slurm says it
   */
  static List<String> expand(List<String> words) {
    List<String> ids = new ArrayList<>();
    for (String word : words) {
      for (String id : word.split(",(?![^\\[]*])")) {
        String w = id.strip();
        int open = w.indexOf("_[");
        if (open > 0 && w.endsWith("]")) {
          ids.addAll(tasks(arrayId(w.substring(0, open), w), w.substring(open + 1), w));
        } else {
          ids.add(key(w).toString());
        }
      }
    }
    return ids;
  }

  /** An array's pending remainder ({@code [4-9%2]}, as the service lists it) as 42_4 ... 42_9. */
  static List<String> tasks(long arrayId, String bracketed) {
    return tasks(arrayId, bracketed, arrayId + "_" + bracketed);
  }

  private static List<String> tasks(long arrayId, String bracketed, String word) {
    List<Integer> taskIds;
    try {
      taskIds = ArraySpec.parse(bracketed.substring(1, bracketed.length() - 1)).taskIds();
    } catch (IllegalArgumentException e) {
      throw new UsageException("Invalid job id " + word + ": " + e.getMessage());
    }
    List<String> ids = new ArrayList<>(taskIds.size());
    taskIds.forEach(t -> ids.add(JobKey.task(arrayId, t).toString()));
    return ids;
  }

  private static long arrayId(String text, String word) {
    try {
      JobKey key = JobKey.parse(text);
      if (key.taskId() == null) {
        return key.id();
      }
    } catch (IllegalArgumentException e) {
      // reported below, naming the whole word
    }
    throw new UsageException("Invalid job id " + word);
  }

  private static JobKey key(String text) {
    try {
      return JobKey.parse(text);
    } catch (IllegalArgumentException e) {
      throw new UsageException("Invalid job id " + text);
    }
  }
}
