package io.squall.api.cluster;

import io.squall.api.agents.BatchEnvironment;
import io.squall.api.config.ClusterLayout;
import io.squall.api.config.SquallConfig;
import io.squall.api.state.StoredJob;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.model.Partition;
import io.squall.core.schedule.Scheduler;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What sacct reports of a job beyond its times and nodes: the request as the partition it ran in
 * resolved it (sacct's ReqTRES and ReqNodes, Timelimit with the partition's DefaultTime or MaxTime
 * applied), the CPUs and memory it was granted (AllocCPUS, AllocTRES), and the fields sacct takes
 * from the job record (QOS, Eligible, NTasks, WorkDir, Reason, Comment, Constraints, Reservation,
 * Cluster).
 */
@Singleton
public final class AccountingDetail {
  private final ClusterLayout layout;
  private final SquallConfig config;
  private final BatchEnvironment environment;

  public AccountingDetail(ClusterLayout layout, SquallConfig config, BatchEnvironment environment) {
    this.layout = layout;
    this.config = config;
    this.environment = environment;
  }

  /** The fields to add to the job's accounting row (docs/rest-api.md, GET /v1/accounting). */
  Map<String, Object> of(StoredJob s) {
    Job j = s.job();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("cluster", config.getClusterName());
    m.put("qos", j.qos());
    m.put("eligible_time", j.eligibleSince() == null ? null : j.eligibleSince().toString());
    int cpus = 0;
    long memory = 0;
    for (GpuGrant g : s.ranOn()) {
      cpus += g.cpus();
      memory += g.memoryMb();
    }
    m.put("num_cpus", cpus);
    m.put("memory_mb", memory);
    m.put("num_tasks", BatchEnvironment.ntasks(j.request(), s.ranOn().size()));
    Partition partition = layout.partitions().stream().filter(p -> p.name().equals(j.partition())).findFirst()
        .orElse(null);
    if (partition != null) {
      int largest = partition.nodes().stream().mapToInt(n -> layout.node(n).gpus()).max().orElse(0);
      Scheduler.Size asked = Scheduler.sizeIn(j, partition, largest);
      m.put("time_limit_minutes", asked.limitSeconds() == Long.MAX_VALUE ? null : asked.limitSeconds() / 60);
      m.put("req_nodes", asked.nodes());
      m.put("req_gpus", asked.gpus());
      m.put("req_cpus", asked.nodes() * asked.cpusPerNode());
      m.put("req_memory_mb", asked.memoryMbPerNode() > 0 ? asked.nodes() * asked.memoryMbPerNode() : null);
    }
    m.put("work_dir", environment.workDir(s));
    m.put("reason", s.reason());
    m.put("comment", j.request().control().comment());
    m.put("constraints", j.request().placement().constraintText());
    m.put("reservation", j.request().placement().reservation());
    return m;
  }
}
