package io.squall.cli;

import io.squall.cli.format.SlurmTime;
import io.squall.cli.format.SlurmValues;
import io.squall.cli.format.TimeFormat;
import io.squall.cli.service.JobInfo;
import io.squall.cli.service.NodeInfo;
import io.squall.cli.service.PartitionInfo;
import io.squall.core.sbatch.ArraySpec;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code scontrol show} records for jobs, nodes and partitions, in Slurm's key names where the
 * API has the data. Keys Slurm has and the API lacks are left out rather than made up.
 */
final class ScontrolRecords {
  private final TimeFormat time;

  ScontrolRecords(TimeFormat time) {
    this.time = time;
  }

  KeyValueText job(JobInfo j) {
    // Slurm's JobId is the job's own number; an array task is also named by ArrayJobId and ArrayTaskId.
    KeyValueText t = new KeyValueText().line().put("JobId", j.jobIdRaw() != null ? j.jobIdRaw() : j.jobId());
    if (j.arrayJobId() != null) {
      t.put("ArrayJobId", j.arrayJobId());
      t.put("ArrayTaskId", j.arrayPending() != null && !j.arrayPending().isEmpty() ? j.arrayPending() : j.arrayTaskId());
    }
    t.put("JobName", j.name());
    t.line().put("UserId", j.user());
    t.line().put("Account", j.account()).put("QOS", j.qos());
    t.line().put("JobState", j.state()).put("Reason", j.reason()).put("Dependency", request(j, "dependency"));
    t.line();
    Object requeue = request(j, "requeue");
    if (requeue instanceof Boolean b) {
      t.put("Requeue", b ? 1 : 0);
    }
    t.put("Restarts", j.restartCount() == null ? 0 : j.restartCount());
    if (j.batch() != null) {
      // Slurm's place for it: 0 for an interactive allocation (salloc, srun).
      t.put("BatchFlag", j.batch() ? 1 : 0);
    }
    t.put("ExitCode", SlurmValues.exitCode(j.exitCode(), j.exitSignal()));
    t.line().put("RunTime", SlurmTime.full(j.elapsedSeconds() == null ? 0 : j.elapsedSeconds()))
        .put("TimeLimit", SlurmTime.fullLimit(j.timeLimitMinutes()));
    t.line().put("SubmitTime", time(j.submitTime()));
    // Slurm shows a pending job's expected start as its StartTime, as squeue does.
    t.line().put("StartTime", time(SqueueColumns.start(j))).put("EndTime", time(SqueueColumns.end(j)));
    t.line().put("Partition", j.partition());
    Object reservation = request(j, "reservation");
    if (reservation != null) {
      t.line().put("Reservation", reservation); // as Slurm, only for a job that names one
    }
    t.line().put("NodeList", j.nodes());
    t.line().put("NumNodes", j.numNodes()).put("NumTasks", j.numTasks());
    t.line().put("TRES", SlurmValues.tres(null, j.numGpus(), j.numNodes()));
    if (j.allocation() != null) {
      for (JobInfo.Allocation a : j.allocation()) {
        List<Integer> gpus = a.gpus() == null ? List.of() : a.gpus();
        t.detail("Nodes=" + a.node() + " GRES=gpu:" + gpus.size() + "(IDX:" + indexes(gpus) + ")");
      }
    }
    t.line().put("WorkDir", j.workDir());
    t.line().put("StdErr", j.stderr());
    t.line().put("StdOut", j.stdout());
    return t;
  }

  KeyValueText node(NodeInfo n) {
    KeyValueText t = new KeyValueText().line().put("NodeName", n.name());
    t.line().put("CPUTot", n.cpus()).put("RealMemory", n.memoryMb());
    String features = n.features().isEmpty() ? null : String.join(",", n.features());
    t.line().put("AvailableFeatures", features);
    t.line().put("ActiveFeatures", features);
    t.line().put("Gres", SinfoColumns.gres(n));
    t.line().put("State", n.state());
    t.line().put("Partitions", n.partitions().isEmpty() ? null : String.join(",", n.partitions()));
    t.line().put("CfgTRES", SlurmValues.tres(n.cpus(), n.gpus(), null));
    t.line().put("AllocTRES", n.gpusAllocated() == null || n.gpusAllocated() == 0 ? "" : "gres/gpu=" + n.gpusAllocated());
    t.line().put("PlacementGroup", n.placementGroup()).put("LastHeartbeat", time(n.lastHeartbeat()));
    t.line().put("Jobs", n.jobs().isEmpty() ? null : String.join(",", n.jobs()));
    if (n.reason() != null && !n.reason().isBlank()) {
      // As scontrol prints it: who set the reason and when, in brackets.
      t.line().put("Reason", n.reason() + " [" + (n.reasonUser() == null ? "Unknown" : n.reasonUser()) + "@"
          + time(n.reasonTime()) + "]");
    }
    return t;
  }

  KeyValueText partition(PartitionInfo p) {
    KeyValueText t = new KeyValueText().line().put("PartitionName", p.name());
    t.line().put("Default", p.defaultPartition() ? "YES" : "NO");
    t.line().put("DefaultTime", p.defaultTimeMinutes() == null ? "NONE" : SlurmTime.fullLimit(p.defaultTimeMinutes()))
        .put("MaxNodes", p.maxNodes() == null ? "UNLIMITED" : p.maxNodes())
        .put("MaxTime", SlurmTime.fullLimit(p.maxTimeMinutes()));
    t.line().put("Nodes", p.nodes());
    t.line().put("PriorityTier", p.priorityTier());
    t.line().put("State", p.state()).put("TotalNodes", p.totalNodes());
    t.line().put("TRES", SlurmValues.tres(null, p.totalGpus(), p.totalNodes()));
    return t;
  }

  /**
   * A reservation as Slurm's {@code scontrol show reservation} prints it; the fields Squall does
   * not model (features, licenses, burst buffers, groups) are {@code (null)}, as Slurm prints them
   * when unset.
   */
  KeyValueText reservation(io.squall.cli.service.ReservationInfo r) {
    KeyValueText t = new KeyValueText().line().put("ReservationName", r.name())
        .put("StartTime", time(r.startTime())).put("EndTime", time(r.endTime()))
        .put("Duration", SlurmTime.full(r.durationSeconds() == null ? 0 : r.durationSeconds()));
    t.line().put("Nodes", r.nodes()).put("NodeCnt", r.nodeCount()).put("Features", null)
        .put("PartitionName", r.partition()).put("Flags", r.flags() == null ? "" : String.join(",", r.flags()));
    t.line().put("Users", list(r.users())).put("Groups", null).put("Accounts", list(r.accounts()))
        .put("Licenses", null).put("State", r.state()).put("BurstBuffer", null);
    return t;
  }

  private static String list(List<String> names) {
    return names == null || names.isEmpty() ? null : String.join(",", names);
  }

  private String time(Instant at) {
    return this.time.format(at, "Unknown");
  }

  private static Object request(JobInfo j, String key) {
    Map<String, Object> r = j.request();
    return r == null ? null : r.get(key);
  }

  /** GPU indexes as Slurm writes them: 0,1,2,5 becomes 0-2,5. */
  static String indexes(List<Integer> gpus) {
    return ArraySpec.formatIds(gpus.stream().sorted().distinct().toList());
  }
}
