package io.squall.cli;

import io.squall.cli.format.JobStates;
import io.squall.cli.format.LineTemplate;
import io.squall.cli.format.SlurmTime;
import io.squall.cli.format.Table;
import io.squall.cli.format.TimeFormat;
import io.squall.cli.format.Table.Column;
import io.squall.cli.service.JobInfo;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * squeue's {@code -o} specifiers: the letter, Slurm's header, how to read it from a job and which of
 * the listed job's summary fields that reads (squeue asks the service for no others).
 */
final class SqueueColumns {
  /** States whose {@code %R} is the reason rather than nodes: Slurm explains why they are not running. */
  private static final Set<String> REASON_STATES =
      Set.of("PENDING", "FAILED", "TIMEOUT", "NODE_FAIL", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "PREEMPTED");

  private SqueueColumns() {}

  /** A column with the {@code GET /v1/jobs} summary fields its value reads (JobInfo's JSON names). */
  record Spec(Column<JobInfo> column, List<String> fields) {}

  /** The columns by letter, with the fields each reads. */
  static Map<String, Spec> of(TimeFormat time) {
    Map<String, Spec> c = new LinkedHashMap<>();
    put(c, 'i', "JOBID", JobInfo::displayId, "job_id", "array_pending", "array_job_id");
    put(c, 'P', "PARTITION", JobInfo::partition, "partition");
    put(c, 'j', "NAME", JobInfo::name, "name");
    put(c, 'u', "USER", JobInfo::user, "user");
    put(c, 'T', "STATE", JobInfo::state, "state");
    put(c, 't', "ST", j -> JobStates.shortName(j.state()), "state");
    put(c, 'M', "TIME", j -> SlurmTime.compact(j.elapsedSeconds() == null ? 0 : j.elapsedSeconds()), "elapsed_seconds");
    put(c, 'l', "TIME_LIMIT", j -> SlurmTime.limit(j.timeLimitMinutes()), "time_limit_minutes");
    put(c, 'D', "NODES", j -> text(j.numNodes()), "num_nodes");
    put(c, 'R', "NODELIST(REASON)", SqueueColumns::reasonOrNodes, "state", "reason", "nodes");
    put(c, 'a', "ACCOUNT", JobInfo::account, "account");
    put(c, 'b', "TRES_PER_NODE", SqueueColumns::gres, "num_gpus", "num_nodes");
    put(c, 'C', "CPUS", j -> "N/A"); // the API has no CPU counts
    put(c, 'S', "START_TIME", j -> time.format(start(j), "N/A"), "start_time", "expected_start");
    put(c, 'V', "SUBMIT_TIME", j -> time.format(j.submitTime(), "N/A"), "submit_time");
    put(c, 'e', "END_TIME", j -> time.format(end(j), "N/A"), "end_time", "start_time", "expected_start",
        "time_limit_minutes");
    put(c, 'q', "QOS", JobInfo::qos, "qos");
    put(c, 'v', "RESERVATION", SqueueColumns::reservation, "reservation");
    put(c, 'Q', "PRIORITY", j -> ""); // nor priorities
    put(c, 'r', "REASON", JobInfo::reason, "reason");
    put(c, 'N', "NODELIST", JobInfo::nodes, "nodes");
    put(c, 'A', "JOBID", j -> j.jobIdRaw() != null ? j.jobIdRaw().toString() : j.jobId(), "job_id_raw", "job_id");
    put(c, 'F', "ARRAY_JOB_ID", j -> j.arrayJobId() != null ? j.arrayJobId().toString() : j.jobId(), "array_job_id",
        "job_id");
    put(c, 'K', "ARRAY_TASK_ID", SqueueColumns::arrayTask, "array_pending", "array_task_id");
    put(c, 'Z', "WORK_DIR", JobInfo::workDir, "work_dir");
    // The nodes backfill expects a pending job to start on: Squall does not say, and squeue prints
    // (null) for a job the scheduler has named none for.
    put(c, 'Y', "SCHEDNODES", j -> "(null)");
    return c;
  }

  /** The columns alone, by letter, for a {@link Table}. */
  static Map<String, Column<JobInfo>> columns(Map<String, Spec> specs) {
    Map<String, Column<JobInfo>> c = new LinkedHashMap<>();
    specs.forEach((letter, spec) -> c.put(letter, spec.column()));
    return c;
  }

  /** The summary fields the template's columns read, in the order they are first read. */
  static Set<String> fieldsRead(Map<String, Spec> specs, LineTemplate template) {
    Set<String> fields = new LinkedHashSet<>();
    template.fields().forEach(f -> fields.addAll(specs.get(f.key()).fields()));
    return fields;
  }

  private static void put(Map<String, Spec> c, char letter, String header, Function<JobInfo, String> value,
      String... fields) {
    c.put(String.valueOf(letter), new Spec(new Column<>(header, value), List.of(fields)));
  }

  /** The advanced reservation the job asked for; Slurm's {@code (null)} for none. */
  static String reservation(JobInfo j) {
    return j.reservation() == null ? "(null)" : j.reservation();
  }

  static String reasonOrNodes(JobInfo j) {
    if (j.state() != null && REASON_STATES.contains(j.state())) {
      return "(" + (j.reason() == null ? "None" : j.reason()) + ")";
    }
    return j.nodes() == null ? "" : j.nodes();
  }

  /** GPUs per node when they divide evenly (what --gres asked for), else the job's total. */
  private static String gres(JobInfo j) {
    if (j.numGpus() == null || j.numGpus() == 0) {
      return "N/A";
    }
    int nodes = j.numNodes() == null || j.numNodes() == 0 ? 1 : j.numNodes();
    return "gres/gpu:" + (j.numGpus() % nodes == 0 ? j.numGpus() / nodes : j.numGpus());
  }

  /** A waiting job's start is its expected start, as squeue shows it. */
  static Instant start(JobInfo j) {
    return j.startTime() != null ? j.startTime() : j.expectedStart();
  }

  /** A running job's end is its start plus its limit until it actually ends, as squeue shows it. */
  static Instant end(JobInfo j) {
    if (j.endTime() != null) {
      return j.endTime();
    }
    Instant start = start(j);
    return start == null || j.timeLimitMinutes() == null ? null : start.plusSeconds(j.timeLimitMinutes() * 60);
  }

  private static String arrayTask(JobInfo j) {
    if (j.arrayPending() != null && !j.arrayPending().isEmpty()) {
      return j.arrayPending();
    }
    return j.arrayTaskId() == null ? "N/A" : j.arrayTaskId().toString();
  }

  private static String text(Object o) {
    return o == null ? "" : o.toString();
  }
}
