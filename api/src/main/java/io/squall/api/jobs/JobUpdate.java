package io.squall.api.jobs;

import io.squall.api.state.ApiException;
import io.squall.api.web.JsonBody;
import io.squall.core.sbatch.TimeLimit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What {@code scontrol update job} asks to change in a pending job, as scontrol(1) names it:
 * TimeLimit (set, or {@code +=}/{@code -=} a time), Partition, QOS, NumNodes, Dependency (empty
 * clears it), Nice, Priority and ReservationName (empty clears it). Each value is read as the
 * sbatch option it stands for, so every value means what it means at submission.
 *
 * @param timeLimitDelta {@code +30} or {@code -1:00:00}: added to or taken from the current limit
 */
public record JobUpdate(String timeLimit, String timeLimitDelta, String partition, String qos, String numNodes,
    String dependency, String nice, String priority, String reservation) {

  /** The fields of {@code POST /v1/jobs/{id}/update} (docs/rest-api.md). */
  static final Set<String> FIELDS = Set.of("time_limit", "time_limit_delta", "partition", "qos", "num_nodes",
      "dependency", "nice", "priority", "reservation");

  /** @throws ApiException 400 for a body with nothing to change, or both a time limit and a change of it */
  static JobUpdate of(JsonBody body) {
    JobUpdate u = new JobUpdate(body.optText("time_limit"), body.optText("time_limit_delta"), body.optText("partition"),
        body.optText("qos"), body.optText("num_nodes"), body.optText("dependency"), body.optText("nice"),
        body.optText("priority"), body.optText("reservation"));
    if (u.fields().isEmpty()) {
      throw ApiException.badRequest("nothing to update: give one of " + String.join(", ", new TreeSet<>(FIELDS)));
    }
    if (u.timeLimit != null && u.timeLimitDelta != null) {
      throw ApiException.badRequest("time_limit and time_limit_delta: give one, not both");
    }
    if (u.timeLimitDelta != null && !u.timeLimitDelta.startsWith("+") && !u.timeLimitDelta.startsWith("-")) {
      throw ApiException.badRequest("time_limit_delta=" + u.timeLimitDelta + ": starts with + or -, as TimeLimit+=30");
    }
    return u;
  }

  /** The changes as scontrol shows them ({@code TimeLimit=30}), for the job's history. */
  Map<String, String> fields() {
    Map<String, String> m = new LinkedHashMap<>();
    put(m, "TimeLimit", timeLimit);
    if (timeLimitDelta != null) {
      m.put("TimeLimit" + timeLimitDelta.charAt(0), timeLimitDelta.substring(1));
    }
    put(m, "Partition", partition);
    put(m, "QOS", qos);
    put(m, "NumNodes", numNodes);
    put(m, "Dependency", dependency);
    put(m, "Nice", nice);
    put(m, "Priority", priority);
    put(m, "ReservationName", reservation);
    return m;
  }

  /**
   * The sbatch options that make the change.
   *
   * @param currentLimit the job's time limit now in minutes ({@link TimeLimit#UNLIMITED} for none), for a delta
   * @throws ApiException 400 for a delta that cannot apply
   */
  List<String> options(int currentLimit) {
    List<String> words = new ArrayList<>();
    if (timeLimit != null) {
      words.add("--time=" + timeLimit);
    }
    if (timeLimitDelta != null) {
      words.add("--time=" + changedLimit(currentLimit));
    }
    add(words, "--partition=", partition);
    add(words, "--qos=", qos);
    add(words, "--nodes=", numNodes);
    add(words, "--dependency=", dependency);
    add(words, "--nice=", nice);
    add(words, "--priority=", priority);
    add(words, "--reservation=", reservation);
    return words;
  }

  private int changedLimit(int current) {
    String written = "TimeLimit" + timeLimitDelta.charAt(0) + "=" + timeLimitDelta.substring(1);
    int minutes;
    try {
      minutes = TimeLimit.parseMinutes(timeLimitDelta.substring(1));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(written + ": " + e.getMessage());
    }
    if (minutes == TimeLimit.UNLIMITED || current == TimeLimit.UNLIMITED) {
      throw ApiException.badRequest(written + ": Invalid time limit specified (an UNLIMITED limit cannot be added to"
          + " or taken from; set TimeLimit=)");
    }
    int changed = timeLimitDelta.charAt(0) == '+' ? current + minutes : current - minutes;
    if (changed <= 0) {
      throw ApiException.badRequest(written + ": Invalid time limit specified (the job's limit is " + current
          + " minutes)");
    }
    return changed;
  }

  private static void put(Map<String, String> m, String key, String value) {
    if (value != null) {
      m.put(key, value);
    }
  }

  private static void add(List<String> words, String option, String value) {
    if (value != null) {
      words.add(option + value);
    }
  }
}
