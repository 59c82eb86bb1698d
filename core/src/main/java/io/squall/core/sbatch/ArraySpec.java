package io.squall.core.sbatch;

import io.squall.core.hostlist.Hostlist;
import java.util.AbstractList;
import java.util.BitSet;
import java.util.List;
import java.util.RandomAccess;

/**
 * A job array: the task ids and how many may run at once. Written as {@code 0-15},
 * {@code 1,3,5}, {@code 0-99:10}, with an optional {@code %N} throttle.
 *
 * @param maxRunning the throttle, or 0 for none
 */
public record ArraySpec(List<Integer> taskIds, int maxRunning) {
  /** Slurm's default MaxArraySize: task ids go from 0 to 1000. The cluster's own is the server's check. */
  public static final int DEFAULT_MAX_ARRAY_SIZE = 1001;
  /**
   * The largest MaxArraySize slurm.conf(5) allows is 4000001, so no cluster accepts a task id
   * above 4000000: refusing it here is safe, and it bounds the memory a hostile value could cost.
   */
  public static final int HIGHEST_TASK_ID = 4_000_000;

  public ArraySpec {
    taskIds = taskIds instanceof TaskIds ? taskIds : List.copyOf(taskIds);
  }

  /** The highest task id, which MaxArraySize is checked against. */
  public int lastTaskId() {
    return taskIds.get(taskIds.size() - 1);
  }

  /**
   * The distance between consecutive task ids (SLURM_ARRAY_TASK_STEP): 2 for {@code 1-7:2} as for
   * {@code 1,3,5,7}, which are the same tasks; 1 for a single task or uneven gaps.
   */
  public int step() {
    if (taskIds.size() < 2) {
      return 1;
    }
    int step = taskIds.get(1) - taskIds.get(0);
    for (int i = 2; i < taskIds.size(); i++) {
      if (taskIds.get(i) - taskIds.get(i - 1) != step) {
        return 1;
      }
    }
    return step;
  }

  /**
   * Reads an --array value ({@code 0-15:4,20%2}).
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static ArraySpec parse(String text) {
    String t = text.strip();
    int maxRunning = 0;
    int pct = t.indexOf('%');
    if (pct >= 0) {
      String throttle = t.substring(pct + 1);
      if (!WholeNumber.is(throttle)) {
        throw new IllegalArgumentException("bad throttle '%" + throttle + "': expected %N with N a whole number");
      }
      maxRunning = Integer.parseInt(throttle);
      t = t.substring(0, pct);
    }
    BitSet ids = new BitSet();
    for (String part : t.split(",", -1)) {
      addPart(part, ids);
    }
    return new ArraySpec(new TaskIds(ids.stream().toArray()), maxRunning);
  }

  /** Sorted ids kept as ints: an array of millions of tasks costs 4 bytes a task, not an Integer each. */
  private static final class TaskIds extends AbstractList<Integer> implements RandomAccess {
    private final int[] ids;

    TaskIds(int[] ids) {
      this.ids = ids;
    }

    @Override
    public Integer get(int index) {
      return ids[index];
    }

    @Override
    public int size() {
      return ids.length;
    }
  }

  private static void addPart(String part, BitSet ids) {
    if (part.isEmpty()) {
      throw new IllegalArgumentException("empty element in the task list");
    }
    int step = 1;
    int colon = part.indexOf(':');
    String range = part;
    if (colon >= 0) {
      step = index(part.substring(colon + 1), "step");
      if (step == 0) {
        throw new IllegalArgumentException("step must be at least 1 in '" + part + "'");
      }
      range = part.substring(0, colon);
    }
    int dash = range.indexOf('-');
    int lo = index(dash < 0 ? range : range.substring(0, dash), "task id");
    int hi = dash < 0 ? lo : index(range.substring(dash + 1), "task id");
    if (dash < 0 && colon >= 0) {
      throw new IllegalArgumentException("a step needs a range (e.g. 0-99:10), not '" + part + "'");
    }
    if (hi < lo) {
      throw new IllegalArgumentException("range '" + range + "' goes backwards");
    }
    if (hi > HIGHEST_TASK_ID) {
      throw new IllegalArgumentException("task id " + hi + " is above " + HIGHEST_TASK_ID
          + ", the highest any Slurm cluster allows (MaxArraySize is at most 4000001)");
    }
    for (int i = lo; i <= hi; i += step) {
      ids.set(i);
    }
  }

  private static int index(String s, String what) {
    if (!WholeNumber.is(s)) {
      throw new IllegalArgumentException("bad " + what + " '" + s + "': expected a whole number");
    }
    return Integer.parseInt(s);
  }

  /** The task list as Slurm prints it: {@code 0-15}, {@code 1,3,5-7}, {@code 0,4,8,12}. */
  public String taskList() {
    return formatIds(taskIds);
  }

  /** Formats sorted ids as comma-separated runs ({@code 1,3,5-7}). */
  public static String formatIds(List<Integer> sortedIds) {
    return Hostlist.formatRuns(sortedIds, 0);
  }

  /** As {@code --array} would be written back, throttle included. */
  @Override
  public String toString() {
    return taskList() + (maxRunning > 0 ? "%" + maxRunning : "");
  }
}
