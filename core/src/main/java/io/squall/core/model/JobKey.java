package io.squall.core.model;

/**
 * Names a job or one task of an array: {@code 42} or {@code 42_7}, as Slurm writes them. A task
 * also gets a job id of its own when it leaves its array's pending entry ({@link Job#jobId}); its
 * key keeps naming it by its array, so that the key never changes.
 *
 * @param id the job id, or the array job id for a task
 * @param taskId the array task id, or null
 */
public record JobKey(long id, Integer taskId) implements Comparable<JobKey> {
  public static JobKey of(long id) {
    return new JobKey(id, null);
  }

  public static JobKey task(long arrayJobId, int taskId) {
    return new JobKey(arrayJobId, taskId);
  }

  /**
   * Reads a key as Slurm writes it: {@code 42} or {@code 42_3}.
   *
   * @throws IllegalArgumentException for anything else
   */
  public static JobKey parse(String text) {
    int u = text.indexOf('_');
    try {
      JobKey key = u < 0 ? of(Long.parseLong(text))
          : task(Long.parseLong(text.substring(0, u)), Integer.parseInt(text.substring(u + 1)));
      if (key.id() > 0 && (key.taskId() == null || key.taskId() >= 0)) {
        return key;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("'" + text + "' is not a job id (expected 42 or 42_3)");
  }

  @Override
  public int compareTo(JobKey o) {
    int c = Long.compare(id, o.id);
    if (c != 0) {
      return c;
    }
    return Integer.compare(taskId == null ? -1 : taskId, o.taskId == null ? -1 : o.taskId);
  }

  @Override
  public String toString() {
    return taskId == null ? Long.toString(id) : id + "_" + taskId;
  }
}
