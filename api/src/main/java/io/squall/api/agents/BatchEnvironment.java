package io.squall.api.agents;

import io.squall.api.config.SquallConfig;
import io.squall.api.spot.CheckpointCatalog;
import io.squall.api.state.StoredJob;
import io.squall.checkpoint.Checkpoint;
import io.squall.core.hostlist.Hostlist;
import io.squall.core.model.GpuGrant;
import io.squall.core.model.Job;
import io.squall.core.sbatch.ArraySpec;
import io.squall.core.sbatch.FilenamePattern;
import io.squall.core.sbatch.JobRequest;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a started job's batch step needs on its nodes: the Slurm environment (DESIGN.md section 4),
 * its directory and its output files. Node-local variables (CUDA_VISIBLE_DEVICES, SLURMD_NODENAME)
 * are the agent's to add.
 */
@Singleton
public final class BatchEnvironment {
  private final SquallConfig config;
  private final CheckpointCatalog checkpoints;

  private final JobOwners owners;

  public BatchEnvironment(SquallConfig config, CheckpointCatalog checkpoints, JobOwners owners) {
    this.owners = owners;
    this.config = config;
    this.checkpoints = checkpoints;
  }

  /** The launch messages, one per node of the allocation, in allocation order (the first runs the script). */
  public Map<String, Map<String, Object>> launches(StoredJob stored, Map<String, String> addresses) {
    Job job = stored.job();
    List<String> nodes = new ArrayList<>();
    job.allocation().forEach(g -> nodes.add(g.node()));
    Map<String, String> env = environment(stored, nodes);
    String workDir = workDir(stored);
    Map<String, Object> nodeAddresses = new LinkedHashMap<>(addresses);
    Map<String, Map<String, Object>> launches = new LinkedHashMap<>();
    for (int i = 0; i < job.allocation().size(); i++) {
      GpuGrant g = job.allocation().get(i);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("job", job.key().toString());
      m.put("credential", stored.credential());
      // An interactive allocation runs no script: every node only holds the job for srun's steps.
      boolean batch = i == 0 && !stored.submission().interactive();
      m.put("batch", batch);
      m.put("script", batch ? stored.submission().script() : "");
      m.put("args", batch ? stored.submission().scriptArgs() : List.of());
      m.put("work_dir", workDir);
      m.put("environment", env);
      m.put("gpus", g.gpuIndices());
      m.put("stdout", outputPath(stored, false, nodes.get(0)));
      m.put("stderr", outputPath(stored, true, nodes.get(0)));
      m.put("stdin", inputPath(stored, nodes.get(0)));
      m.put("open_mode", "append".equals(job.request().files().openMode()) ? "append" : "truncate");
      m.put("nodes", nodeAddresses);
      m.put("run_as", owners.runAs(job.user()));
      m.put("run", job.restartCount()); // a run ended here before this launch came is not started
      launches.put(g.node(), m);
    }
    return launches;
  }

  /**
   * What salloc sets for its command and srun for a step's tasks on a login node: the allocation's
   * {@code SLURM_*} variables (and Squall's own, such as {@code SQUALL_JOB_KEY}), without the
   * submitter's environment, which the client has itself.
   */
  public Map<String, String> allocationEnvironment(StoredJob stored) {
    List<String> nodes = new ArrayList<>();
    stored.job().allocation().forEach(g -> nodes.add(g.node()));
    Map<String, String> env = new TreeMap<>();
    environment(stored, nodes).forEach((k, v) -> {
      if (k.startsWith("SLURM_") || k.startsWith("SQUALL_")) {
        env.put(k, v);
      }
    });
    return env;
  }

  public String workDir(StoredJob stored) {
    String chdir = stored.request().files().chdir();
    Path submit = Path.of(stored.submission().submitDir());
    return chdir == null ? submit.toString() : submit.resolve(chdir).normalize().toString();
  }

  /** The --output (or --error) file with its pattern expanded; stderr goes to stdout's file unless --error is given. */
  public String outputPath(StoredJob stored, boolean stderr, String firstNode) {
    JobRequest.Files files = stored.job().request().files();
    boolean array = stored.job().key().taskId() != null;
    String pattern = stderr && files.error() != null ? files.error()
        : files.output() != null ? files.output() : array ? "slurm-%A_%a.out" : "slurm-%j.out";
    return expand(stored, pattern, firstNode);
  }

  /** The --input file with its pattern expanded, or null for none (the script then reads /dev/null, as in Slurm). */
  public String inputPath(StoredJob stored, String firstNode) {
    String pattern = stored.job().request().files().input();
    return pattern == null ? null : expand(stored, pattern, firstNode);
  }

  private String expand(StoredJob stored, String pattern, String firstNode) {
    Job job = stored.job();
    boolean array = job.key().taskId() != null;
    FilenamePattern.Context ctx = new FilenamePattern.Context(job.jobId(), array ? job.key().id() : null,
        job.key().taskId(), jobName(stored), job.user(), firstNode, 0, "batch", 0);
    return Path.of(workDir(stored)).resolve(FilenamePattern.expand(pattern, ctx)).toString();
  }

  public static String jobName(StoredJob stored) {
    String name = stored.request().jobName();
    return name != null ? name : stored.submission().scriptName();
  }

  private Map<String, String> environment(StoredJob stored, List<String> nodes) {
    Job job = stored.job();
    JobRequest r = job.request();
    Map<String, String> env = new TreeMap<>(exported(stored));
    String nodelist = Hostlist.compress(nodes);
    int ntasks = ntasks(r, nodes.size());
    env.put("SLURM_JOB_ID", Long.toString(job.jobId()));
    env.put("SLURM_JOBID", Long.toString(job.jobId()));
    env.put("SQUALL_JOB_KEY", job.key().toString());
    env.put("SLURM_JOB_NAME", jobName(stored));
    env.put("SLURM_JOB_USER", job.user());
    env.put("SLURM_JOB_ACCOUNT", job.account());
    env.put("SLURM_JOB_QOS", job.qos());
    env.put("SLURM_JOB_PARTITION", job.partition());
    env.put("SLURM_CLUSTER_NAME", config.getClusterName());
    env.put("SLURM_JOB_NODELIST", nodelist);
    env.put("SLURM_NODELIST", nodelist);
    env.put("SLURM_NNODES", Integer.toString(nodes.size()));
    env.put("SLURM_JOB_NUM_NODES", Integer.toString(nodes.size()));
    env.put("SLURM_NTASKS", Integer.toString(ntasks));
    env.put("SLURM_NPROCS", Integer.toString(ntasks));
    env.put("SLURM_NTASKS_PER_NODE", Integer.toString(Math.max(1, ntasks / nodes.size())));
    env.put("SLURM_CPUS_PER_TASK", Integer.toString(r.resources().cpusPerTask() == null ? 1 : r.resources().cpusPerTask()));
    env.put("SLURM_SUBMIT_DIR", stored.submission().submitDir());
    env.put("SLURM_SUBMIT_HOST", "localhost");
    env.put("SLURM_RESTART_COUNT", Integer.toString(job.restartCount()));
    // The checkpoint contract: where to write, and what to restore (empty on a first start).
    String key = job.key().toString();
    env.put("SQUALL_CHECKPOINT_DIR", checkpoints.directoryOf(key, job.partition()));
    env.put("SQUALL_RESTORE_FROM", checkpoints.latest(key, job.partition()).map(Checkpoint::path).orElse(""));
    env.put("SLURM_JOB_GPUS", gpuList(job.allocation().get(0)));
    if (job.key().taskId() != null) {
      ArraySpec array = r.control().array();
      env.put("SLURM_ARRAY_JOB_ID", Long.toString(job.key().id()));
      env.put("SLURM_ARRAY_TASK_ID", Integer.toString(job.key().taskId()));
      env.put("SLURM_ARRAY_TASK_COUNT", Integer.toString(array.taskIds().size()));
      env.put("SLURM_ARRAY_TASK_MIN", Integer.toString(array.taskIds().get(0)));
      env.put("SLURM_ARRAY_TASK_MAX", Integer.toString(array.lastTaskId()));
      env.put("SLURM_ARRAY_TASK_STEP", Integer.toString(array.step()));
    }
    return env;
  }

  /** sbatch's --export: ALL (the default) passes the submitter's environment, NONE nothing, else a list. */
  private static Map<String, String> exported(StoredJob stored) {
    Map<String, String> submitted = stored.submission().environment();
    String export = stored.request().files().export();
    if (export == null || export.equalsIgnoreCase("ALL")) {
      return submitted;
    }
    Map<String, String> env = new TreeMap<>();
    for (String item : export.split(",")) {
      int eq = item.indexOf('=');
      if (item.equalsIgnoreCase("ALL")) {
        env.putAll(submitted);
      } else if (eq > 0) {
        env.put(item.substring(0, eq), item.substring(eq + 1));
      } else if (!item.equalsIgnoreCase("NONE") && submitted.containsKey(item)) {
        env.put(item, submitted.get(item));
      }
    }
    return env;
  }

  /** Tasks of the job: --ntasks, else --ntasks-per-node on every node, else one per node. */
  public static int ntasks(JobRequest r, int nodes) {
    if (r.resources().ntasks() != null) {
      return r.resources().ntasks();
    }
    if (r.resources().ntasksPerNode() != null) {
      return r.resources().ntasksPerNode() * nodes;
    }
    return nodes;
  }

  private static String gpuList(GpuGrant g) {
    StringBuilder sb = new StringBuilder();
    for (int i : g.gpuIndices()) {
      sb.append(sb.length() == 0 ? "" : ",").append(i);
    }
    return sb.toString();
  }
}
