package io.squall.api.jobs;

import io.squall.api.agents.BatchEnvironment;
import io.squall.api.config.ClusterLayout;
import io.squall.api.state.ApiException;
import io.squall.api.state.StoredJob;
import io.squall.api.store.JobEventRow;
import io.squall.api.web.TextRules;
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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** A job as the API shows it (docs/rest-api.md). */
@Singleton
public final class JobViews {
  private final BatchEnvironment environment;
  private final String defaultPartition;
  /** The summary's fields by name, in their order. */
  private final Map<String, SummaryField> fields;
  private final List<SummaryField> allFields;

  public JobViews(BatchEnvironment environment, ClusterLayout layout) {
    this.environment = environment;
    this.defaultPartition = layout.partitions().stream().filter(p -> p.isDefault()).findFirst()
        .map(p -> p.name()).orElse("");
    this.fields = table();
    this.allFields = List.copyOf(fields.values());
  }

  /**
   * The summary's fields, in the order every view writes them: each one's name and how to compute it.
   * A list that names some ({@code GET /v1/jobs?fields=}) computes only those, with this same code.
   */
  private Map<String, SummaryField> table() {
    Map<String, SummaryField> t = new LinkedHashMap<>();
    field(t, "job_id", r -> r.job.key().toString());
    field(t, "job_id_raw", r -> r.job.jobId());
    field(t, "array_job_id", r -> r.job.request().control().array() != null ? r.job.key().id() : null);
    field(t, "array_task_id", r -> r.job.key().taskId());
    field(t, "array_pending", r -> r.job.isArrayRemainder() ? arrayPending(r.stored) : null);
    field(t, "name", r -> BatchEnvironment.jobName(r.stored));
    field(t, "user", r -> r.job.user());
    field(t, "account", r -> r.job.account());
    field(t, "partition", r -> {
      List<String> asked = r.job.request().placement().partitions();
      return r.job.partition() != null ? r.job.partition() : asked.isEmpty() ? defaultPartition : String.join(",", asked);
    });
    field(t, "qos", r -> r.job.qos());
    field(t, "reservation", r -> r.job.request().placement().reservation());
    field(t, "state", r -> r.job.state().name());
    field(t, "reason", r -> r.stored.reason());
    field(t, "nodes", r -> r.nodes().isEmpty() ? null : Hostlist.compress(r.nodes()));
    field(t, "num_nodes", JobRow::numNodes);
    field(t, "num_gpus", r -> r.stored.ranOn().isEmpty() ? null : r.stored.gpusRanOn());
    field(t, "num_tasks", r -> BatchEnvironment.ntasks(r.job.request(), r.numNodes()));
    field(t, "time_limit_minutes", r -> {
      Integer limit = r.job.request().timing().timeLimitMinutes();
      return limit == null || limit < 0 ? null : limit;
    });
    field(t, "submit_time", r -> text(r.job.submitTime()));
    field(t, "eligible_time", r -> text(r.job.eligibleSince()));
    field(t, "start_time", r -> text(r.job.startTime()));
    field(t, "end_time", r -> text(r.job.endTime()));
    field(t, "elapsed_seconds", r -> elapsedSeconds(r.job, r.now));
    field(t, "expected_start", r -> text(r.stored.expectedStart()));
    field(t, "restart_count", r -> r.job.restartCount());
    field(t, "not_before", r -> text(r.job.notBefore()));
    field(t, "exit_code", r -> r.job.exitCode());
    field(t, "exit_signal", r -> r.stored.exitSignal());
    field(t, "work_dir", r -> environment.workDir(r.stored));
    field(t, "stdout", r -> environment.outputPath(r.stored, false, r.firstNode()));
    field(t, "stderr", r -> environment.outputPath(r.stored, true, r.firstNode()));
    field(t, "held", r -> r.stored.held());
    return t;
  }

  private static void field(Map<String, SummaryField> table, String name, Function<JobRow, Object> value) {
    table.put(name, new SummaryField(name, value));
  }

  /** One field of a job's summary: its name in the JSON and how to compute it. */
  record SummaryField(String name, Function<JobRow, Object> value) {}

  /** The job a summary is being written for, with what several fields share computed once. */
  static final class JobRow {
    private final StoredJob stored;
    private final Job job;
    private final Instant now;
    private List<String> nodes;

    private JobRow(StoredJob stored, Instant now) {
      this.stored = stored;
      this.job = stored.job();
      this.now = now;
    }

    private List<String> nodes() {
      if (nodes == null) {
        nodes = JobViews.nodes(stored);
      }
      return nodes;
    }

    private int numNodes() {
      return nodes().isEmpty() ? requestedNodes(stored) : nodes().size();
    }

    private String firstNode() {
      return nodes().isEmpty() ? "" : nodes().get(0);
    }
  }

  /**
   * The summary fields a comma-separated list names ({@code ?fields=job_id,state}), in the summary's
   * order whatever the list's; null or empty for all of them.
   *
   * @throws ApiException (400) naming the first unknown field and listing the known ones
   */
  List<SummaryField> fields(String csv) {
    if (csv == null || csv.isBlank()) {
      return allFields;
    }
    Set<String> asked = new HashSet<>();
    for (String name : csv.split(",")) {
      String n = name.strip();
      if (!n.isEmpty() && !fields.containsKey(n)) {
        throw ApiException.badRequest("fields: unknown field " + TextRules.quoted(n) + "; the known ones are "
            + String.join(",", fields.keySet()));
      }
      asked.add(n);
    }
    return allFields.stream().filter(f -> asked.contains(f.name())).toList();
  }

  /** The job's summary with every field. */
  public Map<String, Object> summary(StoredJob s, Instant now) {
    return summary(s, now, allFields);
  }

  /** The job's summary with only {@code only}'s fields (from {@link #fields}), computing no other. */
  Map<String, Object> summary(StoredJob s, Instant now, List<SummaryField> only) {
    JobRow row = new JobRow(s, now);
    // Sized for its fields (and detail's 5 more) at the default load factor: squeue builds one per
    // job, and growing from 16 twice was a tenth of the list's time at 100,000 jobs.
    Map<String, Object> m = new LinkedHashMap<>((only.size() + 5) * 4 / 3 + 1);
    for (SummaryField f : only) {
      m.put(f.name(), f.value().apply(row));
    }
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
