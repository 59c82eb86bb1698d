package io.squall.cli;

import io.squall.cli.service.AccountingJob;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sacct --json}: each job as data_parser/v0.0.39's JOB (slurmdb_job_rec_t), in its key
 * order, with the fields Squall's accounting has. Squall runs no job steps, so {@code steps} is
 * empty.
 */
final class SacctJson {
  private SacctJson() {}

  static Map<String, Object> job(AccountingJob j) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("account", j.account());
    m.put("allocation_nodes", j.numNodes() == null ? 0 : j.numNodes());
    m.put("array", array(j.jobId()));
    m.put("cluster", j.cluster());
    m.put("constraints", j.constraints() == null ? "" : j.constraints());
    m.put("exit_code", SlurmJson.exitCode(j.exitCode(), j.exitSignal()));
    m.put("job_id", j.jobIdRaw() != null ? j.jobIdRaw() : SlurmJson.jobNumber(j.jobId()));
    m.put("name", j.name());
    m.put("nodes", j.nodes() == null ? "" : j.nodes());
    m.put("partition", j.partition());
    m.put("qos", j.qos());
    Map<String, Object> required = new LinkedHashMap<>();
    required.put("CPUs", j.reqCpus() == null ? 0 : j.reqCpus());
    required.put("memory", j.reqMemoryMb() == null ? 0 : j.reqMemoryMb());
    m.put("required", required);
    m.put("reservation", Map.of("name", j.reservation() == null ? "" : j.reservation()));
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("current", j.state());
    state.put("reason", j.reason() == null ? "None" : j.reason());
    m.put("state", state);
    m.put("steps", List.of());
    Map<String, Object> time = new LinkedHashMap<>();
    time.put("elapsed", j.elapsedSeconds() == null ? 0 : j.elapsedSeconds());
    time.put("eligible", SlurmJson.seconds(j.eligibleTime()));
    time.put("end", SlurmJson.seconds(j.endTime()));
    time.put("start", SlurmJson.seconds(j.startTime()));
    time.put("submission", SlurmJson.seconds(j.submitTime()));
    time.put("suspended", 0);
    time.put("limit", SlurmJson.limit(j.timeLimitMinutes()));
    m.put("time", time);
    Map<String, Object> tres = new LinkedHashMap<>();
    tres.put("allocated", SlurmJson.tres(j.numCpus(), j.memoryMb(), j.numGpus(), j.numNodes()));
    tres.put("requested", SlurmJson.tres(j.reqCpus(), j.reqMemoryMb(), j.reqGpus(), j.reqNodes()));
    m.put("tres", tres);
    m.put("user", j.user());
    m.put("working_directory", j.workDir() == null ? "" : j.workDir());
    return m;
  }

  /** {@code {"job_id":42,"task_id":{3},"task":""}}; a job that is no array's has job id 0 and no task. */
  private static Map<String, Object> array(String jobId) {
    int u = jobId.indexOf('_');
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("job_id", u < 0 ? 0 : Long.parseLong(jobId.substring(0, u)));
    m.put("task_id", SlurmJson.number(u < 0 ? null : Long.parseLong(jobId.substring(u + 1))));
    m.put("task", "");
    return m;
  }
}
