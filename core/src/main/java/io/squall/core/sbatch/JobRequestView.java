package io.squall.core.sbatch;

import io.squall.core.hostlist.Hostlist;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The normalized request as one flat JSON object, with values as Slurm reports them. */
public final class JobRequestView {
  private JobRequestView() {}

  public static Map<String, Object> of(JobRequest r) {
    var res = r.resources();
    var place = r.placement();
    var time = r.timing();
    var files = r.files();
    var ctl = r.control();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("job_name", r.jobName());
    m.put("partition", place.partitions().isEmpty() ? null : String.join(",", place.partitions()));
    m.put("nodes_min", res.nodesMin());
    m.put("nodes_max", res.nodesMax());
    m.put("ntasks", res.ntasks());
    m.put("ntasks_per_node", res.ntasksPerNode());
    m.put("cpus_per_task", res.cpusPerTask());
    m.put("gpus", res.gpus());
    m.put("gpus_per_node", res.gpusPerNode());
    m.put("gpus_per_task", res.gpusPerTask());
    m.put("ntasks_per_gpu", res.ntasksPerGpu());
    m.put("cpus_per_gpu", res.cpusPerGpu());
    m.put("gpu_type", res.gpuType());
    m.put("mem_per_node_mb", res.memPerNodeMb());
    m.put("mem_per_cpu_mb", res.memPerCpuMb());
    m.put("mem_per_gpu_mb", res.memPerGpuMb());
    m.put("time_limit_minutes", minutes(time.timeLimitMinutes()));
    m.put("time_min_minutes", minutes(time.timeMinMinutes()));
    m.put("begin", time.begin() == null ? null : time.begin().toString());
    m.put("deadline", time.deadline() == null ? null : time.deadline().toString());
    m.put("array_task_ids", ctl.array() == null ? null : ctl.array().taskList());
    m.put("array_max_running", ctl.array() == null || ctl.array().maxRunning() == 0 ? null : ctl.array().maxRunning());
    m.put("dependency", ctl.dependency() == null ? null : ctl.dependency().toString());
    m.put("requeue", ctl.requeue());
    m.put("exclusive", res.exclusive() == Exclusive.NO ? Boolean.FALSE : res.exclusive().name().toLowerCase(Locale.ROOT));
    m.put("hold", ctl.hold());
    m.put("nice", ctl.nice());
    m.put("priority", ctl.priority());
    m.put("output", files.output());
    m.put("error", files.error());
    m.put("input", files.input());
    m.put("signal_name", ctl.signal() == null ? null : ctl.signal().name());
    m.put("signal_seconds", ctl.signal() == null ? null : ctl.signal().seconds());
    m.put("signal_batch_only", ctl.signal() == null ? null : ctl.signal().batchOnly());
    m.put("account", ctl.account());
    m.put("qos", ctl.qos());
    m.put("constraint", place.constraintText());
    m.put("nodelist", place.nodelist().isEmpty() ? null : Hostlist.compress(place.nodelist()));
    m.put("exclude", place.exclude().isEmpty() ? null : Hostlist.compress(place.exclude()));
    m.put("switches", place.switches());
    m.put("switches_wait_minutes", place.switchesWaitMinutes());
    m.put("reservation", place.reservation());
    m.put("comment", ctl.comment());
    m.put("chdir", files.chdir());
    m.put("export", files.export());
    m.put("open_mode", files.openMode());
    m.put("mail_type", ctl.mailType());
    m.put("mail_user", ctl.mailUser());
    m.put("wait_all_nodes", ctl.waitAllNodes());
    m.put("gpu_bind", place.gpuBind());
    m.put("hint", place.hint());
    m.put("distribution", place.distribution());
    m.put("container_image", files.containerImage());
    m.put("unhonoured", r.unhonoured().isEmpty() ? null : r.unhonoured());
    return m;
  }

  private static Object minutes(Integer minutes) {
    if (minutes == null) {
      return null;
    }
    return minutes == TimeLimit.UNLIMITED ? "UNLIMITED" : minutes;
  }
}
