package io.squall.cli.format;

import io.squall.core.model.JobState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Slurm's job state names and their two-letter codes (squeue {@code %t}). Users filter with
 * either form ({@code -t PD,R} or {@code -t pending,running}); the service is always sent the
 * long names.
 */
public final class JobStates {
  private static final Map<String, String> SHORT = new LinkedHashMap<>();

  static {
    SHORT.put("PENDING", "PD");
    SHORT.put("RUNNING", "R");
    SHORT.put("SUSPENDED", "S");
    SHORT.put("COMPLETING", "CG");
    SHORT.put("COMPLETED", "CD");
    SHORT.put("CONFIGURING", "CF");
    SHORT.put("CANCELLED", "CA");
    SHORT.put("FAILED", "F");
    SHORT.put("TIMEOUT", "TO");
    SHORT.put("PREEMPTED", "PR");
    SHORT.put("NODE_FAIL", "NF");
    SHORT.put("BOOT_FAIL", "BF");
    SHORT.put("DEADLINE", "DL");
    SHORT.put("OUT_OF_MEMORY", "OOM");
    SHORT.put("REQUEUED", "RQ");
    SHORT.put("REQUEUE_HOLD", "RH");
    SHORT.put("RESIZING", "RS");
    SHORT.put("REVOKED", "RV");
    SHORT.put("SIGNALING", "SI");
    SHORT.put("SPECIAL_EXIT", "SE");
    SHORT.put("STAGE_OUT", "SO");
    SHORT.put("STOPPED", "ST");
  }

  /**
   * What squeue lists without {@code -t}: the states of Squall's jobs (core's {@link JobState})
   * that are not finished. A {@code -t} list may still name any Slurm state; the service matches
   * it against its jobs' states, so one Squall never uses finds nothing.
   */
  public static final List<String> ACTIVE = Arrays.stream(JobState.values())
      .filter(s -> !s.isFinished()).map(JobState::name).toList();

  private JobStates() {}

  /** The two-letter code ({@code PD}, {@code R}, ...); an unknown state prints as itself. */
  public static String shortName(String state) {
    if (state == null) {
      return "";
    }
    return SHORT.getOrDefault(state.toUpperCase(Locale.ROOT), state);
  }

  /**
   * Reads a {@code -t} list: long names or codes, any case, comma-separated.
   *
   * @return the long names in the order given, or an empty list for {@code all}
   * @throws IllegalArgumentException naming the unknown state and the valid ones
   */
  public static List<String> parseList(String text) {
    List<String> states = new ArrayList<>();
    for (String word : text.split(",")) {
      String w = word.strip().toUpperCase(Locale.ROOT);
      if (w.isEmpty()) {
        continue;
      }
      if (w.equals("ALL")) {
        return List.of();
      }
      String state = longName(w);
      if (state == null) {
        throw new IllegalArgumentException("Invalid job state specified: " + word.strip()
            + "\nvalid job states include: " + String.join(",", SHORT.keySet()) + " (or their codes "
            + String.join(",", SHORT.values()) + ", or all)");
      }
      if (!states.contains(state)) {
        states.add(state);
      }
    }
    return states;
  }

  private static String longName(String upper) {
    if (SHORT.containsKey(upper)) {
      return upper;
    }
    for (Map.Entry<String, String> e : SHORT.entrySet()) {
      if (e.getValue().equals(upper)) {
        return e.getKey();
      }
    }
    return null;
  }
}
