package io.squall.cli;

import io.squall.cli.format.SlurmValues;
import io.squall.cli.service.JobInfo;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.hostlist.HostlistException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code squeue --json}: each job as data_parser/v0.0.39's JOB_INFO, in its key order, with the
 * fields Squall's jobs have. Squall's accrue time is its eligible time (both count from when the
 * job could first run), so both keys carry it; start and end times are squeue's (expected while the
 * job waits).
 */
final class SqueueJson {
  private SqueueJson() {}

  static Map<String, Object> job(JobInfo j) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("account", j.account());
    m.put("accrue_time", SlurmJson.seconds(j.eligibleTime()));
    // A job that is no array's has array_job_id 0 in Slurm.
    m.put("array_job_id", SlurmJson.number(j.arrayJobId() == null ? 0 : j.arrayJobId()));
    m.put("array_task_id", SlurmJson.number(j.arrayTaskId()));
    m.put("array_task_string", pendingTasks(j));
    m.put("batch_flag", true);
    m.put("batch_host", firstNode(j.nodes()));
    m.put("eligible_time", SlurmJson.seconds(j.eligibleTime()));
    m.put("end_time", SlurmJson.seconds(SqueueColumns.end(j)));
    m.put("exit_code", SlurmJson.waitStatus(j.exitCode(), j.exitSignal()));
    // An array task's own id, as Slurm's job_id; the array's pending tasks go under the array's id.
    m.put("job_id", j.jobIdRaw() != null ? j.jobIdRaw() : SlurmJson.jobNumber(j.jobId()));
    m.put("job_state", j.state());
    m.put("name", j.name());
    m.put("nodes", j.nodes() == null ? "" : j.nodes());
    m.put("node_count", SlurmJson.number(j.numNodes()));
    m.put("tasks", SlurmJson.number(j.numTasks()));
    m.put("partition", j.partition());
    m.put("qos", j.qos());
    m.put("restart_cnt", j.restartCount() == null ? 0 : j.restartCount());
    m.put("start_time", SlurmJson.seconds(SqueueColumns.start(j)));
    m.put("state_reason", j.reason() == null ? "None" : j.reason());
    m.put("standard_error", j.stderr());
    m.put("standard_output", j.stdout());
    m.put("submit_time", SlurmJson.seconds(j.submitTime()));
    m.put("time_limit", SlurmJson.limit(j.timeLimitMinutes()));
    if (j.nodes() != null && !j.nodes().isEmpty()) {
      m.put("tres_alloc_str", SlurmValues.tres(null, j.numGpus(), j.numNodes()));
    }
    m.put("user_name", j.user());
    m.put("current_working_directory", j.workDir());
    return m;
  }

  /** The pending remainder's task ids as Slurm writes array_task_string ({@code 4-9%2}). */
  private static String pendingTasks(JobInfo j) {
    String p = j.arrayPending();
    return p == null || p.length() < 2 ? "" : p.substring(1, p.length() - 1);
  }

  private static String firstNode(String nodes) {
    if (nodes == null || nodes.isEmpty()) {
      return "";
    }
    try {
      List<String> names = Hostlist.expand(nodes);
      return names.isEmpty() ? "" : names.get(0);
    } catch (HostlistException e) {
      return "";
    }
  }
}
