package io.squall.api.jobs;

import io.squall.api.agents.BatchEnvironment;
import io.squall.api.config.ClusterLayout;
import io.squall.api.state.StoredJob;
import io.squall.api.store.JobEventRow;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.JobState;
import io.squall.core.sbatch.ArraySpec;
import io.squall.core.sbatch.JobRequestView;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A job as the API shows it (docs/rest-api.md). */
@Singleton
public final class JobViews {
  private final BatchEnvironment environment;
  private final String defaultPartition;

  public JobViews(BatchEnvironment environment, ClusterLayout layout) {
    this.environment = environment;
    this.defaultPartition = layout.partitions().stream().filter(p -> p.isDefault()).findFirst()
        .map(p -> p.name()).orElse("");
  }

  public Map<String, Object> summary(StoredJob s, Instant now) {
    Job j = s.job();
    // Sized for its 32 fields (and detail's 5 more) at the default load factor: squeue builds one per
    // job, and growing from 16 twice was a tenth of the list's time at 100,000 jobs.
    Map<String, Object> m = new LinkedHashMap<>(64);
    boolean array = j.request().control().array() != null;
    m.put("job_id", j.key().toString());
    m.put("job_id_raw", j.jobId());
    m.put("array_job_id", array ? j.key().id() : null);
    m.put("array_task_id", j.key().taskId());
    m.put("array_pending", j.isArrayRemainder() ? arrayPending(s) : null);
    m.put("name", BatchEnvironment.jobName(s));
    m.put("user", j.user());
    m.put("account", j.account());
    List<String> asked = j.request().placement().partitions();
    m.put("partition", j.partition() != null ? j.partition() : asked.isEmpty() ? defaultPartition : String.join(",", asked));
    m.put("qos", j.qos());
    m.put("reservation", j.request().placement().reservation());
    m.put("state", j.state().name());
    m.put("reason", s.reason());
    List<String> nodes = nodes(s);
    m.put("nodes", nodes.isEmpty() ? null : Hostlist.compress(nodes));
    int numNodes = nodes.isEmpty() ? requestedNodes(s) : nodes.size();
    m.put("num_nodes", numNodes);
    m.put("num_gpus", s.ranOn().isEmpty() ? null : s.gpusRanOn());
    m.put("num_tasks", BatchEnvironment.ntasks(j.request(), numNodes));
    m.put("time_limit_minutes", j.request().timing().timeLimitMinutes() == null
        || j.request().timing().timeLimitMinutes() < 0 ? null : j.request().timing().timeLimitMinutes());
    m.put("submit_time", text(j.submitTime()));
    m.put("eligible_time", text(j.eligibleSince()));
    m.put("start_time", text(j.startTime()));
    m.put("end_time", text(j.endTime()));
    m.put("elapsed_seconds", elapsedSeconds(j, now));
    m.put("expected_start", text(s.expectedStart()));
    m.put("restart_count", j.restartCount());
    m.put("not_before", text(j.notBefore()));
    m.put("exit_code", j.exitCode());
    m.put("exit_signal", s.exitSignal());
    m.put("work_dir", environment.workDir(s));
    String first = nodes.isEmpty() ? "" : nodes.get(0);
    m.put("stdout", environment.outputPath(s, false, first));
    m.put("stderr", environment.outputPath(s, true, first));
    m.put("held", s.held());
    return m;
  }

  public Map<String, Object> detail(StoredJob s, List<JobEventRow> events, Instant now) {
    Map<String, Object> m = summary(s, now);
    m.put("request", JobRequestView.of(s.request()));
    List<Map<String, Object>> allocation = new ArrayList<>();
    for (GpuGrant g : s.ranOn()) {
      allocation.add(Map.of("node", g.node(), "gpus", g.gpuIndices(), "cpus", g.cpus(), "memory_mb", g.memoryMb()));
    }
    m.put("allocation", allocation);
    List<Map<String, Object>> history = new ArrayList<>();
    for (JobEventRow e : events) {
      history.add(Map.of("time", e.eventTime().toString(), "state", e.state(), "reason", e.reason()));
    }
    m.put("events", history);
    m.put("script", s.submission().script());
    // Slurm's BatchFlag: 0 for an interactive allocation (salloc, srun), whose script is only a placeholder.
    m.put("batch", !s.submission().interactive());
    return m;
  }

  static String arrayPending(StoredJob s) {
    ArraySpec spec = s.request().control().array();
    String ids = ArraySpec.formatIds(s.job().pendingTasks());
    return "[" + ids + (spec != null && spec.maxRunning() > 0 ? "%" + spec.maxRunning() : "") + "]";
  }

  static List<String> nodes(StoredJob s) {
    List<String> nodes = new ArrayList<>();
    if (s.job().state() != JobState.PENDING) {
      s.ranOn().forEach(g -> nodes.add(g.node()));
    }
    return nodes;
  }

  private static int requestedNodes(StoredJob s) {
    Integer min = s.request().resources().nodesMin();
    return min == null ? 1 : min;
  }

  static Long elapsedSeconds(Job j, Instant now) {
    if (j.startTime() == null || j.state() == JobState.PENDING) {
      return 0L;
    }
    Instant end = j.endTime() != null ? j.endTime() : now;
    return Math.max(0, Duration.between(j.startTime(), end).toSeconds());
  }

  static String text(Instant t) {
    return t == null ? null : t.toString();
  }
}
