package io.squall.core.sbatch;

import java.util.ArrayList;
import java.util.List;

/**
 * A job's {@code --dependency}: conditions joined either all with {@code ,} (every one must
 * hold) or all with {@code ?} (any one suffices).
 */
public record Dependency(List<Condition> conditions, boolean anyOf) {
  /** Slurm's dependency types. */
  public enum Type {
    AFTER("after"), AFTERANY("afterany"), AFTEROK("afterok"), AFTERNOTOK("afternotok"),
    AFTERCORR("aftercorr"), AFTERBURSTBUFFER("afterburstbuffer"), SINGLETON("singleton");

    private final String word;

    Type(String word) {
      this.word = word;
    }

    public String word() {
      return word;
    }
  }

  /**
   * One condition on one job.
   *
   * @param jobId the job depended on (0 for singleton)
   * @param taskId the array task, or null for the whole job or array
   * @param delayMinutes for {@code after:id+time}: minutes after the job started
   */
  public record Condition(Type type, long jobId, Integer taskId, int delayMinutes) {
    @Override
    public String toString() {
      if (type == Type.SINGLETON) {
        return "singleton";
      }
      String ref = jobId + (taskId == null ? "" : "_" + taskId);
      return type.word() + ":" + ref + (delayMinutes > 0 ? "+" + delayMinutes : "");
    }
  }

  public Dependency {
    conditions = List.copyOf(conditions);
  }

  /**
   * @return null for an empty list: sbatch stores {@code --dependency=} as given, no dependency, and
   *     a later empty one clears an earlier (scontrol update's {@code Dependency=} does the same)
   */
  static Dependency parse(String text) {
    String t = text.strip();
    if (t.isEmpty()) {
      return null;
    }
    boolean hasAll = t.indexOf(',') >= 0;
    boolean hasAny = t.indexOf('?') >= 0;
    if (hasAll && hasAny) {
      throw new IllegalArgumentException("use either ',' (all) or '?' (any) between conditions, not both");
    }
    List<Condition> conditions = new ArrayList<>();
    for (String part : t.split(hasAny ? "\\?" : ",", -1)) {
      parsePart(part.strip(), conditions);
    }
    return new Dependency(conditions, hasAny);
  }

  private static void parsePart(String part, List<Condition> out) {
    if (part.equals("singleton")) {
      out.add(new Condition(Type.SINGLETON, 0, null, 0));
      return;
    }
    int colon = part.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("bad condition '" + part + "': expected type:jobid[:jobid...] or singleton");
    }
    String word = part.substring(0, colon);
    Type type = null;
    for (Type candidate : Type.values()) {
      if (candidate.word.equals(word) && candidate != Type.SINGLETON) {
        type = candidate;
      }
    }
    if (type == null) {
      throw new IllegalArgumentException("unknown dependency type '" + word
          + "': use after, afterany, afterok, afternotok, aftercorr, afterburstbuffer or singleton");
    }
    for (String ref : part.substring(colon + 1).split(":", -1)) {
      int delay = 0;
      int plus = ref.indexOf('+');
      if (plus >= 0) {
        if (type != Type.AFTER) {
          throw new IllegalArgumentException("'+time' is only allowed with after: in '" + part + "'");
        }
        delay = positiveNumber(ref.substring(plus + 1), "delay in minutes", part);
        ref = ref.substring(0, plus);
      }
      int underscore = ref.indexOf('_');
      long jobId = positiveNumber(underscore < 0 ? ref : ref.substring(0, underscore), "job id", part);
      Integer taskId = underscore < 0 ? null : positiveNumber(ref.substring(underscore + 1), "array task id", part);
      out.add(new Condition(type, jobId, taskId, delay));
    }
  }

  private static int positiveNumber(String s, String what, String part) {
    if (!WholeNumber.is(s)) {
      throw new IllegalArgumentException("bad " + what + " '" + s + "' in '" + part + "'");
    }
    return Integer.parseInt(s);
  }

  /** As Slurm prints it: one condition per job, {@code afterok:4242,afterok:4243}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (Condition c : conditions) {
      if (sb.length() > 0) {
        sb.append(anyOf ? '?' : ',');
      }
      sb.append(c);
    }
    return sb.toString();
  }
}
